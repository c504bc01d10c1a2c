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
