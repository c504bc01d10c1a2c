import { listFields } from '../form/fields.js';
import type { FormField, RequestedSchema } from '../form/types.js';
import type { HostFact, HostProfile } from './types.js';

/** Something a host does with a form that changes nothing Parley sends, but that its author should know. */
export interface HostNote {
  readonly text: string;
  readonly sources: readonly string[];
  readonly seenOn: string;
}

function note(fact: HostFact<unknown>, text: string): HostNote {
  return {
    text: fact.note === undefined ? text : `${text} (${fact.note})`,
    sources: fact.sources,
    seenOn: fact.seenOn,
  };
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

function hasLimits(field: FormField): boolean {
  return [field.minLength, field.maxLength, field.minItems, field.maxItems].some(
    (limit) => limit !== undefined,
  );
}

/**
 * What `host` does with this form that Parley takes care of without changing the form: checks it
 * leaves to the server, defaults it does or does not pre-fill, labels it shows, how long it waits.
 * Only the notes that concern a field of this form (or the form as a whole) are given.
 *
 * @example
 * import { ask, prepareQuestion } from '@parley/core/form';
 *
 * hostNotes(prepareQuestion(ask.email()).schema, builtInProfile('codex')!)[0]?.text; // 'does not check formats: the server does'
 */
export function hostNotes(schema: RequestedSchema, host: HostProfile): HostNote[] {
  const fields = listFields(schema);
  const notes: HostNote[] = [];
  const fieldsOf = host.fields;
  if (fieldsOf?.formats?.value === 'unchecked' && fields.some((field) => FORMATS.has(field.kind)))
    notes.push(note(fieldsOf.formats, 'does not check formats: the server does'));
  if (fieldsOf?.limits?.value === 'unchecked' && fields.some(hasLimits))
    notes.push(note(fieldsOf.limits, 'does not enforce lengths or counts: the server does'));
  if (
    fieldsOf?.choiceLabels?.value === 'values' &&
    fields.some(
      (field) => field.kind === 'choice' && field.options?.some((option) => option.label !== option.value),
    )
  )
    notes.push(note(fieldsOf.choiceLabels, 'labels each option with its value'));
  if (fieldsOf?.labels?.value === 'keys' && fields.length > 0)
    notes.push({
      ...note(fieldsOf.labels, ''),
      text: 'labels each field with its key, not its title: choose readable keys',
    });
  const defaults = host.defaults;
  if (defaults && fields.some((field) => field.default !== undefined))
    notes.push(
      note(
        defaults,
        defaults.value === 'prefilled'
          ? 'pre-fills defaults: an optional field the person clears stays empty'
          : defaults.value === 'choices-only'
            ? 'pre-fills only the defaults of choices and yes/no fields: the server fills a text field left empty'
            : 'does not pre-fill defaults: the server fills a field left empty',
      ),
    );
  const untouched = host.untouched;
  if (untouched && fields.some((field) => !field.required)) {
    const invents = untouched.value.text !== undefined || untouched.value.boolean !== undefined;
    notes.push(
      note(
        untouched,
        invents
          ? 'invents values for optional fields nobody touched: "" and invented numbers are read back as empty'
          : 'sends null for an optional number left empty: read back as empty',
      ),
    );
  }
  const wait = host.wait?.value;
  if (host.wait && wait?.kind === 'limit')
    notes.push(
      note(
        host.wait,
        `gives up on a question after ${wait.limitMs / 1000} s (from the ${wait.from}): an unanswered one moves to a page of the server first`,
      ),
    );
  return notes;
}
