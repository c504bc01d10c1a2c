import { isRecord, own, plainCopy, setOwn } from './json.js';
import type { RequestedSchema } from './types.js';

/**
 * Fills every field the content leaves out with the field's `default`, as a host does when it
 * pre-fills a form. Returns a fresh object; answered fields are kept as they are. Never throws.
 *
 * `shown: 'prefilled'`: the person saw every default filled in, so an optional field left out was
 * cleared by them and stays empty; only a required field (which cannot be left empty) is filled.
 *
 * @example
 * applyDefaults({ type: 'object', properties: { n: { type: 'integer', default: 3 } } }, {}); // { n: 3 }
 */
export function applyDefaults(
  schema: RequestedSchema,
  content: Record<string, unknown> | undefined,
  shown: 'prefilled' | 'not-prefilled' = 'not-prefilled',
): Record<string, unknown> {
  const filled: Record<string, unknown> = isRecord(content) ? plainCopy(content) : {};
  try {
    const properties = isRecord(schema) ? own(schema, 'properties') : undefined;
    if (!isRecord(properties)) return filled;
    const required = own(schema as unknown as Record<string, unknown>, 'required');
    for (const [name, node] of Object.entries(properties)) {
      const fallback = isRecord(node) ? own(node, 'default') : undefined;
      if (fallback === undefined || own(filled, name) !== undefined) continue;
      if (shown === 'prefilled' && !(Array.isArray(required) && required.includes(name))) continue;
      setOwn(filled, name, plainCopy(fallback));
    }
  } catch {
    // An unreadable schema fills nothing.
  }
  return filled;
}

/**
 * Reads accepted form content liberally where its meaning is clear (README, "Compatibility"):
 * - a field sent as `null` was left empty: the spec types content values as string, number,
 *   boolean or string[], so `null` can mean nothing else (FastMCP's Python client sends it for an
 *   empty optional field);
 * - a field left out takes the form's declared `default`: defaults pre-fill the form (SEP-1034), and
 *   clients that do not pre-fill (the Python SDK's, FastMCP's) would otherwise be asked again for a
 *   value the form already names.
 * Anything else (an object where a value belongs, a wrong type) is left as sent, for the form's
 * check to refuse. Returns a fresh object.
 *
 * @example
 * liberalContent({ type: 'object', properties: { n: { type: 'integer', default: 3 } } }, { n: null }); // { n: 3 }
 */
export function liberalContent(
  schema: RequestedSchema,
  content: Record<string, unknown>,
): Record<string, unknown> {
  // applyDefaults copies the content: a copy without the nulls is made first only when there is one.
  const present = Object.values(content).includes(null)
    ? Object.fromEntries(Object.entries(content).filter(([, value]) => value !== null))
    : content;
  return applyDefaults(schema, present);
}
