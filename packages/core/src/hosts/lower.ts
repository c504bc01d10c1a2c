import { boundsText } from '../form/field-text.js';
import { listFields } from '../form/fields.js';
import { own, plainCopy, setOwn } from '../form/json.js';
import { schemaForProtocolVersion } from '../form/protocol-version.js';
import type { FieldSchema, FormField, RequestedSchema } from '../form/types.js';
import { CONFIRM_FIELD, CONFIRM_VALUE, type FieldPlan, optionFieldName } from './plan.js';
import { type RaisedContent, raiser } from './raise.js';
import type { HostFact, HostProfile } from './types.js';

export { CONFIRM_FIELD, CONFIRM_VALUE, optionFieldName } from './plan.js';
export type { RaisedContent } from './raise.js';

/** Each way Parley changes a form for a host, or finds it cannot. */
export type LoweringRule =
  | 'forms-distrusted'
  | 'root-keys'
  | 'number-as-text'
  | 'many-as-booleans'
  | 'many-unshowable'
  | 'choice-as-enum'
  | 'empty-form-confirm'
  | 'revision';

/** One change made to a form for a host (or the reason it cannot be shown), with the fact behind it. */
export interface LoweringChange {
  readonly rule: LoweringRule;
  /** The author's field it changed, when it is one field. */
  readonly field?: string;
  /** What changed, as a person reads it. */
  readonly text: string;
  readonly sources: readonly string[];
  readonly seenOn: string;
}

/** A form as one host is sent it, and how its answers are read back. */
export type LoweredForm =
  | {
      readonly ok: true;
      /** What the host is sent: the author's form itself when nothing needed changing. */
      readonly schema: RequestedSchema;
      readonly changes: readonly LoweringChange[];
      /**
       * Reads the host's answer content back into the author's fields: lowered fields parsed back to
       * the author's types, empty and invented values taken as "left empty", and defaults filled
       * only where the host did not show them. The author's own check runs on the result.
       */
      raise(content: Record<string, unknown>): RaisedContent;
    }
  | { readonly ok: false; readonly reasons: readonly LoweringChange[] };

/** The most options a multi-select may have to be asked as one yes/no field each (host-quirks §3.2 rule 6). */
export const MAX_OPTION_BOOLEANS = 6;
const ROOT_KEYS = new Set(['type', 'properties', 'required']);

function change(rule: LoweringRule, fact: HostFact<unknown>, text: string, field?: string): LoweringChange {
  return { rule, text, sources: fact.sources, seenOn: fact.seenOn, ...(field !== undefined && { field }) };
}

/**
 * Changes a checked form so that `host` shows it as the author meant, following the host's profile
 * (host-quirks §3.2): a root with only `type`, `properties` and `required` where other keys are
 * rejected; numbers as text (the range said in words, the answer parsed back) where numbers are not
 * shown, or where an optional number nobody touched comes back invented; a multi-select as one yes/no
 * per option where multi-selects are not shown (too many options: it cannot be shown); titled choices
 * as a plain list of values where titles turn the choice into a text box; an empty form as one
 * required "confirm" where an empty form is accepted without the person. A host whose form mode is
 * distrusted cannot be shown any form. A host without a profile gets the form unchanged.
 *
 * @example
 * import { ask, prepareQuestion } from '@parley/core/form';
 *
 * const form = prepareQuestion(ask.form({ boxes: ask.integer({ min: 1, max: 3 }) })).schema;
 * const lowered = lowerForm(form, builtInProfile('codex'));
 * lowered.ok && lowered.schema.properties.boxes; // { type: 'string', description: 'Enter a whole number from 1 to 3.' }
 * lowered.ok && lowered.raise({ boxes: '2' }); // { ok: true, content: { boxes: 2 } }
 */
export function lowerForm(
  schema: RequestedSchema,
  host: HostProfile | undefined,
  options: { readonly protocolVersion?: string } = {},
): LoweredForm {
  if (!host) return { ok: true, schema, changes: [], raise: (content) => ({ ok: true, content }) };
  if (host.forms.value === 'distrusted')
    return {
      ok: false,
      reasons: [
        change('forms-distrusted', host.forms, `${host.title} declares forms it cannot be relied on to show`),
      ],
    };
  const fields = listFields(schema);
  const changes: LoweringChange[] = [];
  const reasons: LoweringChange[] = [];
  const plans = new Map<string, FieldPlan>();
  const lowered: Record<string, unknown> = {};
  const required: string[] = [];
  const taken = new Set(fields.map((field) => field.name));
  for (const field of fields) {
    const node = own(schema.properties, field.name) as FieldSchema;
    const plan = planField(field, host, taken, changes, reasons);
    plans.set(field.name, plan);
    writeField(lowered, required, field, node, plan);
  }
  const emptyConfirm = fields.length === 0 && confirmsEmpty(host);
  if (emptyConfirm) {
    setOwn(lowered, CONFIRM_FIELD, {
      type: 'string',
      title: 'Confirm',
      description: 'Choose "confirm" to go on, or decline.',
      enum: [CONFIRM_VALUE],
    });
    required.push(CONFIRM_FIELD);
    changes.push(
      change(
        'empty-form-confirm',
        host.emptyForm!,
        'a form with no fields is asked as one required "confirm": this host accepts an empty form without the person',
      ),
    );
  }
  if (reasons.length > 0) return { ok: false, reasons };
  const stripped =
    host.rootKeys?.value === 'rejected' && Object.keys(schema).some((key) => !ROOT_KEYS.has(key));
  if (stripped)
    changes.push(
      change('root-keys', host.rootKeys!, 'root keys other than type, properties and required are left out'),
    );
  let sent = schema;
  if (changes.length > 0) {
    const built: Record<string, unknown> = stripped ? { type: 'object' } : { ...plainCopy(schema) };
    built.properties = lowered;
    if (required.length > 0) built.required = required;
    else delete built.required;
    sent = built as unknown as RequestedSchema;
  }
  const protocolVersion = options.protocolVersion;
  if (protocolVersion !== undefined) {
    const adapted = schemaForProtocolVersion(sent, protocolVersion);
    if (!adapted.ok)
      return {
        ok: false,
        reasons: adapted.problems.map((problem) => ({
          rule: 'revision' as const,
          text: `on ${protocolVersion}: ${problem.message}`,
          sources: [],
          seenOn: protocolVersion,
        })),
      };
    // Adapting changes nothing on most revisions: the author's own object is kept then.
    if (JSON.stringify(adapted.schema) !== JSON.stringify(sent)) sent = adapted.schema;
  }
  const raise = raiser(fields, plans, host, emptyConfirm, sentDefaults(sent, fields, plans));
  return { ok: true, schema: sent, changes, raise };
}

/**
 * The default each author field was sent with, as the host got it (a revision may have dropped
 * it): only a default the host was sent can it have shown pre-filled.
 */
function sentDefaults(
  sent: RequestedSchema,
  fields: readonly FormField[],
  plans: ReadonlyMap<string, FieldPlan>,
): ReadonlyMap<string, unknown> {
  const defaults = new Map<string, unknown>();
  for (const field of fields) {
    const plan = plans.get(field.name)!;
    const names =
      plan.kind === 'booleans'
        ? plan.options.map((option) => optionFieldName(field.name, option))
        : [field.name];
    const node = own(sent.properties, names[0]!);
    const fallback =
      typeof node === 'object' && node !== null ? own(node as Record<string, unknown>, 'default') : undefined;
    if (fallback !== undefined) defaults.set(field.name, plan.kind === 'booleans' ? field.default : fallback);
  }
  return defaults;
}

function confirmsEmpty(host: HostProfile): boolean {
  const empty = host.emptyForm?.value;
  return empty === 'auto-accepted' || empty === 'accept-only';
}

function planField(
  field: FormField,
  host: HostProfile,
  taken: Set<string>,
  changes: LoweringChange[],
  reasons: LoweringChange[],
): FieldPlan {
  const fields = host.fields;
  if (field.kind === 'number' || field.kind === 'integer') {
    const number = fields?.number;
    if (number && number.value !== 'shown') {
      changes.push(
        change('number-as-text', number, 'asked as text; the answer is read back as a number', field.name),
      );
      return { kind: 'text-number' };
    }
    const untouched = host.untouched;
    if (untouched?.value.number === 'minimum' && !field.required && field.default === undefined) {
      changes.push(
        change(
          'number-as-text',
          untouched,
          'an optional number is asked as text, so that a field nobody touched comes back empty, not invented',
          field.name,
        ),
      );
      return { kind: 'text-number' };
    }
    return { kind: 'as-is' };
  }
  if (field.kind === 'many') {
    const many = fields?.multiSelect;
    if (!many || many.value === 'shown') return { kind: 'as-is' };
    const options = (field.options ?? []).map((option) => option.value);
    const names = options.map((option) => optionFieldName(field.name, option));
    if (options.length > MAX_OPTION_BOOLEANS || names.some((name) => taken.has(name))) {
      reasons.push(
        change(
          'many-unshowable',
          many,
          options.length > MAX_OPTION_BOOLEANS
            ? `a multi-select with ${options.length} options (more than ${MAX_OPTION_BOOLEANS}) cannot be asked as yes/no fields`
            : 'its yes/no fields would clash with other fields',
          field.name,
        ),
      );
      return { kind: 'as-is' };
    }
    for (const name of names) taken.add(name);
    changes.push(change('many-as-booleans', many, 'asked as one yes/no field per option', field.name));
    return { kind: 'booleans', options };
  }
  if (field.kind === 'choice' && fields?.choiceLabels?.value === 'text' && hasTitles(field)) {
    changes.push(
      change(
        'choice-as-enum',
        fields.choiceLabels,
        'asked as a plain list of its values, without titles',
        field.name,
      ),
    );
    return { kind: 'plain-enum' };
  }
  return { kind: 'as-is' };
}

function hasTitles(field: FormField): boolean {
  return (field.options ?? []).some((option) => option.label !== option.value);
}

/** Keys every field keeps when it is lowered. */
function labelled(node: FieldSchema): Record<string, unknown> {
  return {
    ...(node.title !== undefined && { title: node.title }),
    ...(node.description !== undefined && { description: node.description }),
  };
}

function writeField(
  lowered: Record<string, unknown>,
  required: string[],
  field: FormField,
  node: FieldSchema,
  plan: FieldPlan,
): void {
  switch (plan.kind) {
    case 'as-is':
      setOwn(lowered, field.name, plainCopy(node));
      if (field.required) required.push(field.name);
      return;
    case 'text-number': {
      const words = boundsText(field, 'sentence');
      const hint = `Enter ${words.charAt(0).toLowerCase()}${words.slice(1)}`;
      const description = node.description === undefined ? hint : `${node.description} ${hint}`;
      const fallback = field.default;
      setOwn(lowered, field.name, {
        type: 'string',
        ...(node.title !== undefined && { title: node.title }),
        description,
        ...(typeof fallback === 'number' && { default: String(fallback) }),
      });
      if (field.required) required.push(field.name);
      return;
    }
    case 'booleans': {
      const chosen = Array.isArray(field.default) ? field.default : [];
      const bounds = boundsText(field, 'sentence');
      for (const option of field.options ?? []) {
        setOwn(lowered, optionFieldName(field.name, option.value), {
          type: 'boolean',
          title: option.label,
          description: `One of the options of "${field.title}". ${bounds}`.trim(),
          default: chosen.includes(option.value),
        });
      }
      return;
    }
    case 'plain-enum': {
      const values = (field.options ?? []).map((option) => option.value);
      setOwn(lowered, field.name, {
        type: 'string',
        ...labelled(node),
        enum: values,
        ...(typeof field.default === 'string' && { default: field.default }),
      });
      if (field.required) required.push(field.name);
      return;
    }
  }
}
