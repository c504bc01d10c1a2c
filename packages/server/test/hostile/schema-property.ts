import { checkRequestedSchema, parseContent, schemaForProtocolVersion } from '@parley/core/form';
import fc from 'fast-check';
import { expect } from 'vitest';

const json = fc.jsonValue({ maxDepth: 3 });
const hostileKey = fc.oneof(
  fc.constantFrom('name', 'age', '__proto__', 'constructor', 'toString', '', 'a b', '$ref'),
  fc.string({ maxLength: 10 }),
);
const typeName = fc.constantFrom('string', 'number', 'integer', 'boolean', 'array', 'object', 'null', 'date');
const number = fc.oneof(fc.integer({ min: -5, max: 10 }), fc.double(), json);
/** A field schema: often nearly right (the subset's keywords with odd values), sometimes anything. */
const field = fc.oneof(
  fc.record(
    {
      type: fc.oneof(typeName, fc.array(typeName, { maxLength: 2 }), json),
      title: fc.oneof(fc.string({ maxLength: 8 }), json),
      description: json,
      minimum: number,
      maximum: number,
      minLength: number,
      maxLength: number,
      minItems: number,
      maxItems: number,
      format: fc.oneof(fc.constantFrom('email', 'uri', 'date', 'date-time', 'ipv4', 'bogus'), json),
      enum: fc.oneof(fc.array(json, { maxLength: 4 }), json),
      enumNames: fc.oneof(fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }), json),
      oneOf: fc.oneof(
        fc.array(fc.record({ const: json, title: json }, { requiredKeys: [] }), { maxLength: 4 }),
        json,
      ),
      anyOf: fc.oneof(
        fc.array(fc.record({ const: json, title: json }, { requiredKeys: [] }), { maxLength: 4 }),
        json,
      ),
      items: fc.oneof(
        fc.record(
          { type: fc.oneof(typeName, json), enum: fc.array(json, { maxLength: 3 }) },
          { requiredKeys: [] },
        ),
        json,
      ),
      default: json,
      pattern: fc.oneof(fc.constantFrom('^a+$', '(', '[z-a]'), json),
      $ref: json,
    },
    { requiredKeys: [] },
  ),
  json,
);
/** A field inside the subset, with sensible (not always consistent) limits. */
const word = fc.constantFrom('a', 'b', 'low', 'high', 'x y');
const fittingField = fc.oneof(
  fc.record(
    {
      type: fc.constant('string'),
      title: fc.string({ maxLength: 6 }),
      minLength: fc.nat(5),
      maxLength: fc.integer({ min: 5, max: 20 }),
      format: fc.constantFrom('email', 'uri', 'date', 'date-time'),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constantFrom('integer', 'number'),
      minimum: fc.integer({ min: -5, max: 0 }),
      maximum: fc.nat(9),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('boolean'), default: fc.boolean() }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('string'), enum: fc.uniqueArray(word, { minLength: 1, maxLength: 4 }) }),
  fc.record({
    type: fc.constant('string'),
    oneOf: fc
      .uniqueArray(word, { minLength: 1, maxLength: 4 })
      .map((values) => values.map((value) => ({ const: value, title: value.toUpperCase() }))),
  }),
  fc.record(
    {
      type: fc.constant('array'),
      items: fc.record({
        type: fc.constant('string'),
        enum: fc.uniqueArray(word, { minLength: 1, maxLength: 4 }),
      }),
      minItems: fc.nat(1),
      maxItems: fc.integer({ min: 2, max: 4 }),
    },
    { requiredKeys: ['type', 'items'] },
  ),
);
const fittingSchema = fc
  .dictionary(fc.constantFrom('name', 'age', 'email', 'color', 'tags', 'ok'), fittingField, {
    minKeys: 1,
    maxKeys: 4,
  })
  .chain((properties) =>
    fc.record({
      type: fc.constant('object'),
      properties: fc.constant(properties),
      required: fc.subarray(Object.keys(properties)),
    }),
  );

/**
 * A requestedSchema: inside the subset, object-shaped with odd properties and required lists, or
 * any JSON at all.
 */
export const schemaArb = fc.oneof(
  fittingSchema,
  fc.record(
    {
      type: fc.oneof(fc.constant('object'), json),
      properties: fc.oneof(fc.dictionary(hostileKey, field, { maxKeys: 5 }), json),
      required: fc.oneof(fc.array(hostileKey, { maxLength: 4 }), json),
      $schema: json,
      additionalProperties: json,
      title: json,
    },
    { requiredKeys: [] },
  ),
  json,
);
/** Content for such a schema: likely names with likely values, anything under any name, or anything. */
const likelyValue = fc.oneof(
  word,
  fc.integer({ min: -6, max: 12 }),
  fc.boolean(),
  fc.subarray(['a', 'b', 'low', 'high']),
  fc.constantFrom('a@b.example', 'https://x.example', '2026-07-28', '2026-07-28T10:00:00Z'),
);
const contentArb = fc.oneof(
  fc.dictionary(fc.constantFrom('name', 'age', 'email', 'color', 'tags', 'ok'), likelyValue, { maxKeys: 6 }),
  fc.dictionary(hostileKey, json, { maxKeys: 5 }),
  json,
);

/**
 * `runs` random requested schemas through `checkRequestedSchema`, and (whether they fit or not)
 * through `parseContent` with random content and `schemaForProtocolVersion`: none may throw; each
 * answers with problems that name a path and a message. Returns how many schemas fit the subset.
 */
export function checkRandomSchemas(
  runs: number,
  seed?: number,
): { checked: number; fitting: number; accepted: number } {
  let fitting = 0;
  let accepted = 0;
  fc.assert(
    fc.property(schemaArb, contentArb, (schema, content) => {
      const problems = checkRequestedSchema(schema);
      expect(Array.isArray(problems)).toBe(true);
      for (const problem of problems) {
        expect(typeof problem.path).toBe('string');
        expect(problem.message.length).toBeGreaterThan(0);
      }
      if (problems.length === 0) fitting++;
      const parsed = parseContent(schema as never, content);
      expect(typeof parsed.ok).toBe('boolean');
      if (parsed.ok) accepted++;
      for (const version of ['2025-06-18', '2025-11-25', '2026-07-28']) {
        expect(typeof schemaForProtocolVersion(schema as never, version).ok).toBe('boolean');
      }
    }),
    { numRuns: runs, ...(seed !== undefined && { seed }) },
  );
  return { checked: runs, fitting, accepted };
}
