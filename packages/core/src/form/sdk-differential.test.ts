// Differential test against the official SDK's own wire schema for form params
// (`specTypeSchemas.ElicitRequestFormParams` of @modelcontextprotocol/server 2.4.0). On a generated
// corpus of requestedSchemas, checkRequestedSchema must never accept what the SDK rejects, and every
// schema it rejects while the SDK accepts must be explained by one of the deliberate, stricter rules
// listed below.

import { specTypeSchemas } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRequestedSchema } from './check-schema.js';
import type { SchemaProblem } from './types.js';

const sdkFormParams = specTypeSchemas.ElicitRequestFormParams['~standard'];

function sdkAccepts(requestedSchema: unknown): boolean {
  const result = sdkFormParams.validate({ message: 'Please answer', requestedSchema });
  if (result instanceof Promise) throw new Error('the SDK schema is expected to validate synchronously');
  return result.issues === undefined;
}

const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * Where Parley is stricter than the SDK, on purpose. The SDK's zod objects are not strict (unknown
 * keys are stripped, not refused), type its counts and bounds as any number, and check defaults and
 * option lists only for their JSON type; its root object takes any extra key (`catchall`).
 */
const DELIBERATE: { rule: string; why: string; covers: (problem: SchemaProblem) => boolean }[] = [
  {
    rule: 'keywords outside the field shape are refused, not stripped',
    why:
      'the SDK silently drops pattern, const, $ref, examples, exclusive bounds, keywords of another field ' +
      'kind, etc., so the server would believe a constraint is enforced that no client sees; refusing ' +
      'names the fix instead (digest §2.3: "the TS types are closed; anything else is out of spec")',
    covers: ({ path, message }) =>
      path.startsWith('/properties/') &&
      new RegExp(
        '^(unknown keyword "|\\S+ does not apply to |use either enum or oneOf|enumNames labels|' +
          '(titled )?multi-select items carry only|options carry only const and title|nested objects cannot|' +
          '(pattern|\\$ref|\\$defs|\\w+ composition|exclusiveMinimum|exclusiveMaximum|multipleOf|uniqueItems) cannot be sent|' +
          'const fields cannot be asked)',
      ).test(message),
  },
  {
    rule: 'counts are whole numbers of 0 or more; bounds are finite and in order',
    why:
      'the SDK types minLength/maxLength/minItems/maxItems as any number and never compares bounds, so it ' +
      'sends forms that no answer can satisfy (minimum > maximum, minItems above the option count)',
    covers: ({ path, message }) =>
      ['minLength', 'maxLength', 'minItems', 'maxItems', 'minimum', 'maximum'].includes(lastSegment(path)) &&
      /whole number of 0 or more|finite number|is greater than|no whole number lies|is more than the/.test(
        message,
      ),
  },
  {
    rule: 'a default must fit its own field',
    why:
      'the SDK checks only the JSON type of default; digest §2.3 (SEP-1034) says an enum default must be an ' +
      'option and a multi-select default a subset, and a default outside the bounds or format would be ' +
      'pre-filled and then refused',
    covers: ({ path, message }) =>
      lastSegment(path) === 'default' && /^default .* does not fit this field/.test(message),
  },
  {
    rule: 'option lists are non-empty, distinct, and labelled one-to-one',
    why:
      'the SDK accepts an empty enum (a choice nobody can make), repeated options, and enumNames of another ' +
      'length than enum (labels that cannot be matched to values)',
    covers: ({ path, message }) =>
      /\/(enum|enumNames|oneOf|anyOf)(\/|$)/.test(path) &&
      /is empty|duplicate option|labels? for|list each option once/.test(message),
  },
  {
    rule: 'required names existing fields, once',
    why:
      'the SDK accepts any list of strings; a required name with no field can never be answered, and the ' +
      'SDK itself refuses it when it converts a Standard Schema (normalizeElicitInputParams)',
    covers: ({ path, message }) =>
      /^\/required\/\d+$/.test(path) && /is not a field of this form|listed twice/.test(message),
  },
  {
    rule: 'the root carries only a string $schema, type, properties and required',
    why:
      'the SDK root object is catchall(unknown) and does not declare $schema; additionalProperties, $defs, ' +
      'composition and other root keywords are outside the subset (digest §2.3: "Top-level keys allowed"), ' +
      'and the spec types $schema as a string',
    covers: ({ path, message }) =>
      path === '/$schema'
        ? message.startsWith('$schema must be a string')
        : /^\/[^/]+$/.test(path) && !['/type', '/properties', '/required'].includes(path),
  },
];

// ---- the corpus ----------------------------------------------------------------------------------

const word = fc.constantFrom('a', 'b', 'c', 'low', 'high');
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const smallNumber = fc.oneof(fc.integer({ min: -3, max: 6 }), fc.constantFrom(0.5, 2.5, -1.5));
const titledOption = fc.record({ const: word, title: fc.constantFrom('A', 'B', 'Low') });

const text = fc.record(
  {
    type: fc.constant('string'),
    title: fc.constantFrom('Name', 'T'),
    minLength: smallNumber,
    maxLength: smallNumber,
    format: fc.constantFrom('email', 'uri', 'date', 'date-time', 'ipv4', 'time'),
    default: fc.constantFrom('', 'abc', 'a@example.com', 'https://x.example', '2026-07-28', '2026-02-30'),
  },
  { requiredKeys: ['type'] },
);
const number = fc.record(
  {
    type: fc.constantFrom('number', 'integer'),
    description: fc.constant('How many'),
    minimum: smallNumber,
    maximum: smallNumber,
    default: smallNumber,
  },
  { requiredKeys: ['type'] },
);
const boolean = fc.record(
  { type: fc.constant('boolean'), default: fc.boolean() },
  { requiredKeys: ['type'] },
);
const choice = fc.record(
  {
    type: fc.constant('string'),
    enum: fc.array(word, { maxLength: 4 }),
    enumNames: fc.array(fc.constantFrom('A', 'B', 'C'), { maxLength: 4 }),
    default: word,
  },
  { requiredKeys: ['type', 'enum'] },
);
const titledChoice = fc.record(
  { type: fc.constant('string'), oneOf: fc.array(titledOption, { maxLength: 4 }), default: word },
  { requiredKeys: ['type', 'oneOf'] },
);
const many = fc.record(
  {
    type: fc.constant('array'),
    items: fc.oneof(
      fc.record({ type: fc.constant('string'), enum: fc.array(word, { maxLength: 4 }) }),
      fc.record({ anyOf: fc.array(titledOption, { maxLength: 4 }) }),
    ),
    minItems: smallNumber,
    maxItems: smallNumber,
    default: fc.array(word, { maxLength: 3 }),
  },
  { requiredKeys: ['type', 'items'] },
);

type Node = Record<string, unknown>;
const FIELD_MUTATIONS: ((node: Node) => Node)[] = [
  (node) => ({ ...node, pattern: '^a+$' }),
  (node) => ({ ...node, const: 'a' }),
  (node) => ({ ...node, $ref: '#/$defs/x' }),
  (node) => ({ ...node, examples: ['a'] }),
  (node) => ({ ...node, 'x-widget': 'slider' }),
  (node) => ({ ...node, additionalProperties: false }),
  (node) => ({ ...node, exclusiveMinimum: 0 }),
  (node) => ({ ...node, multipleOf: 2 }),
  (node) => ({ ...node, minLength: 1 }),
  (node) => ({ ...node, minimum: 1 }),
  (node) => ({ ...node, maxItems: 1 }),
  (node) => ({ ...node, enumNames: ['A'] }),
  (node) => ({ ...node, uniqueItems: true }),
  (node) => ({ ...node, title: 5 }),
  (node) => ({ ...node, default: 7 }),
  (node) => ({ ...node, type: 'object', properties: { x: { type: 'string' } } }),
  (node) => ({ ...node, type: ['string', 'null'] }),
  (node) => ({ ...node, type: 'null' }),
  (node) => ({ ...node, items: { type: 'string' } }),
  (node) => ({ ...node, items: { type: 'string', enum: ['a'], minLength: 1 } }),
  (node) => ({ ...node, oneOf: [{ const: 'a', title: 'A', description: 'x' }] }),
  (node) => ({ ...node, anyOf: [{ type: 'string' }] }),
  (node) => {
    const { type: _type, ...rest } = node;
    return rest;
  },
];
const ROOT_MUTATIONS: ((root: Node) => Node)[] = [
  (root) => ({ ...root, additionalProperties: false }),
  (root) => ({ ...root, $defs: {} }),
  (root) => ({ ...root, title: 'Form' }),
  (root) => ({ ...root, $schema: 'https://json-schema.org/draft/2020-12/schema' }),
  (root) => ({ ...root, $schema: 7 }),
  (root) => ({ ...root, type: 'array' }),
  (root) => ({ ...root, required: [...((root.required as string[]) ?? []), 'missing'] }),
  (root) => ({ ...root, required: ['f0', 'f0'] }),
  (root) => ({ ...root, required: 'f0' }),
  (root) => ({ type: root.type, required: root.required }),
];

const field = fc
  .tuple(
    fc.oneof(text, number, boolean, choice, titledChoice, many),
    maybe(fc.nat(FIELD_MUTATIONS.length - 1)),
  )
  .map(([node, mutation]) => (mutation === undefined ? node : FIELD_MUTATIONS[mutation]!(node)));

const corpusSchema = fc
  .tuple(
    fc.array(field, { maxLength: 3 }),
    fc.array(fc.boolean(), { maxLength: 3 }),
    maybe(fc.nat(ROOT_MUTATIONS.length - 1)),
  )
  .map(([fields, required, mutation]) => {
    const root: Node = {
      type: 'object',
      properties: Object.fromEntries(fields.map((node, index) => [`f${index}`, node])),
      required: fields.map((_, index) => `f${index}`).filter((_, index) => required[index]),
    };
    return mutation === undefined ? root : ROOT_MUTATIONS[mutation]!(root);
  });

const corpus = fc.sample(corpusSchema, { numRuns: 4000, seed: 20260728 });

describe('checkRequestedSchema against the official SDK wire schema', () => {
  const verdicts = corpus.map((schema) => ({
    schema,
    ours: checkRequestedSchema(schema),
    sdk: sdkAccepts(schema),
  }));

  it('the corpus exercises agreement and disagreement both ways', () => {
    const count = (test: (v: (typeof verdicts)[number]) => boolean) => verdicts.filter(test).length;
    expect(count((v) => v.ours.length === 0 && v.sdk)).toBeGreaterThan(200);
    expect(count((v) => v.ours.length > 0 && !v.sdk)).toBeGreaterThan(200);
    expect(count((v) => v.ours.length > 0 && v.sdk)).toBeGreaterThan(200);
  });

  it('never accepts a schema the SDK rejects', () => {
    const looser = verdicts.filter((v) => v.ours.length === 0 && !v.sdk).map((v) => v.schema);
    expect(looser).toEqual([]);
  });

  it('explains every schema it alone rejects by a deliberate, stricter rule', () => {
    const unexplained: { schema: unknown; problem: SchemaProblem }[] = [];
    const used = new Set<string>();
    for (const { schema, ours, sdk } of verdicts) {
      if (!sdk || ours.length === 0) continue;
      for (const problem of ours) {
        const rule = DELIBERATE.find((item) => item.covers(problem));
        if (rule) used.add(rule.rule);
        else unexplained.push({ schema, problem });
      }
    }
    expect(unexplained.slice(0, 5)).toEqual([]);
    // Every listed rule is needed by the corpus; a rule nothing needs is stale and should go.
    expect([...used].sort()).toEqual(DELIBERATE.map((item) => item.rule).sort());
  });

  it('agrees on the digest table shapes and on the conformance scenario schemas', () => {
    const sep1330 = {
      type: 'object',
      properties: {
        untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        titledSingle: {
          type: 'string',
          oneOf: [
            { const: 'value1', title: 'First Choice' },
            { const: 'value2', title: 'Second Choice' },
          ],
        },
        legacyEnum: { type: 'string', enum: ['opt1', 'opt2'], enumNames: ['Option One', 'Option Two'] },
        untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2'] } },
        titledMulti: { type: 'array', items: { anyOf: [{ const: 'value1', title: 'First Choice' }] } },
      },
    };
    const sep1034 = {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        score: { type: 'number', default: 95.5 },
        status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', default: true },
      },
      required: [],
    };
    for (const schema of [sep1330, sep1034]) {
      expect(checkRequestedSchema(schema)).toEqual([]);
      expect(sdkAccepts(schema)).toBe(true);
    }
  });
});
