// A tool's arguments as form fields: the properties of its input schema that a form can ask, read
// the way a zod question is (zod's own format patterns become formats, z.int()'s safe-integer range
// is dropped), and the ones it cannot, with the reason. Leniently: a constraint a form cannot carry
// (a pattern, a format it lacks, an exclusive bound on a decimal) is left to the tool's own schema,
// which checks the arguments once the person answered.

import { checkRequestedSchema } from './check-schema.js';
import { isRecord, own, plainCopy } from './json.js';
import { pointer } from './problems.js';
import type { FieldSchema } from './types.js';
import { normalizeZodProperty } from './zod-normalize.js';

/** Constraints a form cannot carry, which the tool's schema checks after the answer. */
const LEFT_TO_THE_SCHEMA = /\/(pattern|format|exclusiveMinimum|exclusiveMaximum)$/;

/** What {@link argumentFields} found: the fields a form can ask, and the rest with the reason. */
export interface ArgumentFields {
  /** Each askable argument as a requestedSchema property, in the order asked for. */
  readonly properties: Readonly<Record<string, FieldSchema>>;
  /** Arguments a form cannot ask (an object, a list of objects, a union...), each with why. */
  readonly unaskable: readonly { readonly name: string; readonly reason: string }[];
}

/** The zod shape of a zod object schema (read structurally: core never imports zod). */
function zodShape(source: unknown): Readonly<Record<string, unknown>> | undefined {
  const internals =
    isRecord(source) || typeof source === 'function' ? (source as { _zod?: unknown })._zod : undefined;
  const def = isRecord(internals) ? internals.def : undefined;
  const shape = isRecord(def) ? def.shape : undefined;
  return isRecord(shape) ? shape : undefined;
}

/**
 * The arguments `names` of a tool's input schema as fields of an MCP form, for asking the person
 * for arguments the caller left out (or for a host's form to call the tool with). `inputSchema` is
 * the JSON Schema the tool advertises (zod's, or any Standard Schema's JSON output); `source`, the
 * schema it came from, lets zod's own format patterns be read as formats (`z.iso.date()` becomes
 * `format: "date"`). A constraint a form cannot carry (a pattern, a format the form lacks, an
 * exclusive bound on a decimal) is dropped: check the answer with the tool's schema. What a form
 * cannot ask at all (an object, a list of objects, a nullable value) is `unaskable`. Never throws.
 *
 * @example
 * const input = { type: 'object', properties: { boxes: { type: 'integer', minimum: 1, maximum: 3 }, address: { type: 'object' } } };
 * argumentFields(input, ['boxes', 'address']);
 * // { properties: { boxes: { type: 'integer', minimum: 1, maximum: 3 } },
 * //   unaskable: [{ name: 'address', reason: '...' }] }
 */
export function argumentFields(
  inputSchema: unknown,
  names: readonly string[],
  source?: unknown,
): ArgumentFields {
  const schemaProperties = isRecord(inputSchema) ? own(inputSchema, 'properties') : undefined;
  const shape = zodShape(source);
  const properties: Record<string, FieldSchema> = {};
  const unaskable: { name: string; reason: string }[] = [];
  for (const name of names) {
    const reason = readField(schemaProperties, shape, name, properties);
    if (reason !== undefined) unaskable.push({ name, reason });
  }
  return { properties, unaskable };
}

/** Reads one argument into `into`, or says why a form cannot ask it. */
function readField(
  schemaProperties: unknown,
  shape: Readonly<Record<string, unknown>> | undefined,
  name: string,
  into: Record<string, FieldSchema>,
): string | undefined {
  const found = isRecord(schemaProperties) ? own(schemaProperties, name) : undefined;
  if (!isRecord(found)) return 'the input schema has no such property';
  let node: Record<string, unknown>;
  try {
    node = plainCopy(found);
  } catch {
    return 'its schema is not plain JSON';
  }
  const path = pointer('/properties', name);
  const normalized = normalizeZodProperty(node, shape ? own(shape, name) : undefined, path);
  // The keyword is gone from the node; the tool's schema still checks it.
  const kept = normalized.problems.filter((item) => !LEFT_TO_THE_SCHEMA.test(item.path));
  const problems = normalized.blocked
    ? kept
    : [...kept, ...checkRequestedSchema({ type: 'object', properties: { [name]: node } })];
  if (problems.length > 0) return problems.map((item) => item.message).join('; ');
  into[name] = node as unknown as FieldSchema;
  return undefined;
}
