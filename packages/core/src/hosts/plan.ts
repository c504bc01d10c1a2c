// What lowering does to each field, shared by the lowering and the raise that reads answers back.

/** The one field an empty form is asked with where an empty form is not a person's consent. */
export const CONFIRM_FIELD = 'confirm';
/** The value of {@link CONFIRM_FIELD} that confirms. */
export const CONFIRM_VALUE = 'confirm';

/**
 * The name of the yes/no field that asks for one option of a multi-select, for hosts that cannot
 * show a multi-select (`tags` and `rust` make `tags.rust`).
 */
export function optionFieldName(field: string, option: string): string {
  return `${field}.${option}`;
}

/** What the lowering does to one field (the raise reads it back). */
export type FieldPlan =
  | { readonly kind: 'as-is' }
  | { readonly kind: 'text-number' }
  | { readonly kind: 'booleans'; readonly options: readonly string[] }
  | { readonly kind: 'plain-enum' };
