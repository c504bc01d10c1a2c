import { isRecord } from '@parley/core/form';
import { CONFIRM_FIELD, CONFIRM_VALUE, optionFieldName } from '@parley/core/hosts';

/**
 * What the person enters in one field of the form a host shows, given what they mean (the scripted
 * answer, in the author's fields): the same field in the host's type (a number typed as text, a
 * multi-select ticked as one yes/no per option, "confirm" picked for a bare confirmation), `null`
 * for a field they empty (a scripted `null`: a pre-filled default cleared), or `undefined` for a
 * field they leave alone.
 */
export function personEnters(
  name: string,
  node: Readonly<Record<string, unknown>>,
  meant: Readonly<Record<string, unknown>>,
): unknown {
  if (Object.hasOwn(meant, name)) return meant[name] === null ? null : inHostType(node, meant[name]);
  for (const [field, value] of Object.entries(meant)) {
    if (!Array.isArray(value) || !name.startsWith(`${field}.`)) continue;
    const option = name.slice(field.length + 1);
    if (optionFieldName(field, option) === name) return value.includes(option);
  }
  if (name === CONFIRM_FIELD && Array.isArray(node.enum) && node.enum.includes(CONFIRM_VALUE))
    return CONFIRM_VALUE;
  return undefined;
}

/** A value the person means, as they type or pick it in a field of this type. */
function inHostType(node: Readonly<Record<string, unknown>>, value: unknown): unknown {
  if (node.type === 'string' && node.enum === undefined && node.oneOf === undefined) {
    if (Array.isArray(value)) return value.join(', ');
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  }
  return value;
}

/** A form's fields by name, read from what the host was sent (never trusted to be well-formed). */
export function fieldsOf(schema: unknown): [string, Readonly<Record<string, unknown>>][] {
  const properties = isRecord(schema) ? schema.properties : undefined;
  if (!isRecord(properties)) return [];
  return Object.entries(properties).map(([name, node]) => [name, isRecord(node) ? node : {}]);
}

/** The names a form marks required. */
export function requiredOf(schema: unknown): ReadonlySet<string> {
  const required = isRecord(schema) ? schema.required : undefined;
  return new Set(Array.isArray(required) ? required.filter((name) => typeof name === 'string') : []);
}
