// zod v4's `~standard.validate` first runs a schema in sync mode. When that run meets a promise (an
// async refinement, transform or codec), it drops the promise and runs the schema again in async
// mode (colinhacks/zod#6610): the author's async code runs twice, and if the dropped promise
// rejects, nothing handles the rejection and Node ends the process. A client that can make an async
// refinement throw (`new URL(value)`, a lookup that fails) could stop the server.
//
// A zod schema can only meet a promise in code its author wrote. Schemas without any (most: plain
// objects of strings, numbers and enums with built-in checks) are run the standard way; the others
// are run in async mode from the start, by the caller. Core never imports zod; this reads `_zod.def`.

import { isRecord } from './json.js';
import { isZodSchema } from './zod-vendor.js';

/** zod v4 schema types that run the author's code: transforms, `z.custom`, `z.lazy`, `z.promise`. */
const AUTHOR_CODE_TYPES = new Set(['transform', 'custom', 'lazy', 'promise']);

/** Definition keys that hold values, not schemas (`defaultValue` is a getter that may call the author's function). */
const VALUE_KEYS = new Set(['defaultValue', 'values', 'entries']);

const known = new WeakMap<object, boolean>();

/**
 * Whether running this zod schema can call code its author wrote, anywhere inside it: a
 * refinement or custom check (`.refine`, `.superRefine`, `.check`), a transform or preprocess, a
 * codec, `z.custom`, `z.lazy` or `z.promise`. Only such a schema can meet a promise while it runs.
 * A schema of another vendor answers `false` (zod's double run is zod's); a zod schema that is not
 * zod v4, or a value that is no schema at all, answers `true` (unknown, so treated with care).
 * Remembered per schema.
 */
export function zodRunsAuthorCode(schema: unknown): boolean {
  if (!isRecord(schema) && typeof schema !== 'function') return true;
  if (!isZodSchema(schema)) return false;
  const remembered = known.get(schema);
  if (remembered !== undefined) return remembered;
  const def = zodDef(schema);
  const answer = def === undefined ? true : defRunsAuthorCode(def, new Set([schema]));
  known.set(schema, answer);
  return answer;
}

function zodDef(node: object): Record<string, unknown> | undefined {
  const internals = (node as { _zod?: unknown })._zod;
  return isRecord(internals) && isRecord(internals.def) ? internals.def : undefined;
}

/** A schema's or a check's definition: its own kind, then everything it holds (shape, options, checks...). */
function defRunsAuthorCode(def: Record<string, unknown>, seen: Set<object>): boolean {
  if (typeof def.type === 'string' && AUTHOR_CODE_TYPES.has(def.type)) return true;
  if (def.check === 'custom') return true;
  if (typeof def.transform === 'function') return true; // a codec's decode
  for (const key of Object.keys(def)) {
    if (!VALUE_KEYS.has(key) && holdsAuthorCode(def[key], seen)) return true;
  }
  return false;
}

/** Walks what a definition holds: schemas and checks, arrays of them, and shapes (plain records). */
function holdsAuthorCode(value: unknown, seen: Set<object>): boolean {
  if (!isRecord(value) && !Array.isArray(value)) return false;
  if (seen.has(value)) return false;
  seen.add(value);
  const def = zodDef(value);
  if (def !== undefined) return defRunsAuthorCode(def, seen);
  const items: readonly unknown[] = Array.isArray(value) ? value : Object.values(value);
  return items.some((item) => holdsAuthorCode(item, seen));
}
