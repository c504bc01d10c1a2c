import { own, setOwn } from '../form/json.js';
import type { FieldError, FormField } from '../form/types.js';
import { answerFields } from './answer-fields.js';
import { CONFIRM_FIELD, CONFIRM_VALUE, type FieldPlan, optionFieldName } from './plan.js';
import type { HostProfile } from './types.js';

/** The answer read back into the author's form: the content the author's check then runs on. */
export type RaisedContent =
  | { readonly ok: true; readonly content: Record<string, unknown> }
  | { readonly ok: false; readonly errors: FieldError[] };

const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * How a host's answer to a lowered form is read back: each lowered field in the author's type, then
 * the host's empty and invented values and its defaults (`answerFields`).
 */
export function raiser(
  fields: readonly FormField[],
  plans: ReadonlyMap<string, FieldPlan>,
  host: HostProfile,
  emptyConfirm: boolean,
  defaults: ReadonlyMap<string, unknown>,
): (content: Record<string, unknown>) => RaisedContent {
  const answer = answerFields(host, defaults);
  return (content) => {
    if (emptyConfirm) {
      if (own(content, CONFIRM_FIELD) !== CONFIRM_VALUE)
        return { ok: false, errors: [{ field: '', message: 'Choose "confirm" to go on, or decline' }] };
      return { ok: true, content: {} };
    }
    const raised: Record<string, unknown> = {};
    for (const field of fields) {
      const value = raiseField(field, plans.get(field.name)!, content);
      if (value !== undefined) setOwn(raised, field.name, value);
    }
    return { ok: true, content: answer(fields, raised) };
  };
}

function raiseField(field: FormField, plan: FieldPlan, content: Record<string, unknown>): unknown {
  const value = own(content, field.name);
  switch (plan.kind) {
    case 'text-number': {
      if (typeof value !== 'string') return value;
      const text = value.trim();
      if (text === '') return undefined;
      return NUMBER_TEXT.test(text) ? Number(text) : value;
    }
    case 'booleans': {
      // A host that did send the multi-select itself (a later round, another host) is read as sent.
      if (value !== undefined) return value;
      const answered = plan.options.filter(
        (option) => own(content, optionFieldName(field.name, option)) !== undefined,
      );
      if (answered.length === 0) return undefined;
      const chosen = plan.options.filter(
        (option) => own(content, optionFieldName(field.name, option)) === true,
      );
      return chosen.length === 0 && !field.required ? undefined : chosen;
    }
    default:
      return value;
  }
}
