import { checkRequestedSchema } from './check-schema.js';
import { isRecord, isStringArray, own, plainCopy } from './json.js';
import type { RequestedSchema, SchemaProblem } from './types.js';

/** A form a client received, read liberally: the strict form to show, and what was set aside. */
export type ReceivedSchema =
  | {
      readonly ok: true;
      /** The form in the strict subset (what `checkRequestedSchema` accepts), ready for any host. */
      readonly schema: RequestedSchema;
      /** The root `title`, when the server sent one (pydantic models always do): show it. */
      readonly title?: string;
      /** The root `description`, when the server sent one. */
      readonly description?: string;
    }
  | { readonly ok: false; readonly problems: SchemaProblem[] };

/**
 * Reads a `requestedSchema` that arrived from a server: liberal where the meaning is clear, strict
 * everywhere else. Parley never *sends* these shapes (`checkRequestedSchema` refuses them), but
 * servers in the wild do, so a client accepts and normalises them:
 *
 * - a root `title` or `description` (every pydantic-built schema has a title; the spec's
 *   schema.json allows extra root keys) is set aside for the host to show;
 * - a root `additionalProperties: false` is dropped (a form has exactly its properties anyway);
 * - a multi-select whose `items` has a string `enum` but no `type` (FastMCP's `[["a", "b"]]`) gets
 *   `type: "string"`, the only type a multi-select's items can have.
 *
 * Anything else outside the subset is refused with the same problems `checkRequestedSchema` gives.
 * Never throws.
 *
 * @example
 * receiveRequestedSchema({ title: 'Person', type: 'object', properties: { name: { type: 'string' } } });
 * // { ok: true, title: 'Person', schema: { type: 'object', properties: { name: { type: 'string' } } } }
 */
export function receiveRequestedSchema(schema: unknown): ReceivedSchema {
  if (!isRecord(schema)) return refuse(schema);
  let copy: Record<string, unknown>;
  try {
    copy = plainCopy(schema);
  } catch {
    return refuse(schema);
  }
  const title = own(copy, 'title');
  const description = own(copy, 'description');
  if (typeof title === 'string') delete copy.title;
  if (typeof description === 'string') delete copy.description;
  if (own(copy, 'additionalProperties') === false) delete copy.additionalProperties;
  const properties = own(copy, 'properties');
  if (isRecord(properties)) {
    for (const node of Object.values(properties)) typeUntypedMultiSelect(node);
  }
  const problems = checkRequestedSchema(copy);
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    schema: copy as unknown as RequestedSchema,
    ...(typeof title === 'string' && { title }),
    ...(typeof description === 'string' && { description }),
  };
}

function typeUntypedMultiSelect(node: unknown): void {
  if (!isRecord(node) || own(node, 'type') !== 'array') return;
  const items = own(node, 'items');
  if (!isRecord(items) || own(items, 'type') !== undefined) return;
  if (isStringArray(own(items, 'enum'))) items.type = 'string';
}

function refuse(schema: unknown): ReceivedSchema {
  return { ok: false, problems: checkRequestedSchema(schema) };
}
