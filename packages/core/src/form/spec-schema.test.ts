// Property tests: every builder output is inside the subset AND valid against the spec's own
// JSON schema (2026-07-28), and parseContent answers any content without throwing.

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ask } from './builders.js';
import { checkField } from './check-field.js';
import { checkRequestedSchema } from './check-schema.js';
import { listFields } from './fields.js';
import { parseContent } from './parse-content.js';
import { prepareQuestion } from './prepare.js';
import { SchemaError } from './schema-error.js';
import type { Field, FormField, FormValue } from './types.js';

const SPEC_ID = 'https://modelcontextprotocol.io/schema/2026-07-28.json';
const spec = JSON.parse(
  readFileSync(new URL('../../test/fixtures/mcp-schema-2026-07-28.json', import.meta.url), 'utf8'),
) as { $defs: Record<string, { properties: Record<string, unknown> }> };

// Digest §2.2 quirk: schema.json types answer scalars as ["string","integer","boolean"] while
// schema.ts says number. A fractional answer (95.5) is valid on the wire, so this copy says number.
const answerSpec = structuredClone(spec);
const contentValues = (
  answerSpec.$defs.ElicitResult!.properties.content as {
    additionalProperties: { anyOf: { type: unknown }[] };
  }
).additionalProperties.anyOf;
expect(contentValues[1]!.type).toEqual(['string', 'integer', 'boolean']);
contentValues[1]!.type = ['string', 'number', 'boolean'];

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ ...answerSpec, $id: SPEC_ID });
const validFormParams = ajv.getSchema(`${SPEC_ID}#/$defs/ElicitRequestFormParams`)!;
const validElicitResult = ajv.getSchema(`${SPEC_ID}#/$defs/ElicitResult`)!;

/** Digest §2.3 leniency: the spec schema allows extra keywords, so it can only confirm, never refute, strictness. */
function specAccepts(requestedSchema: unknown): boolean {
  return validFormParams({ mode: 'form', message: 'Please answer', requestedSchema }) === true;
}

const option = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
const label = fc.string({ minLength: 1, maxLength: 12 });
const annotations = fc.record(
  { title: label, description: fc.string({ maxLength: 30 }) },
  { requiredKeys: [] },
);
const optional = fc.record({ optional: fc.boolean() }, { requiredKeys: [] });
const count = fc.nat({ max: 6 });
const bound = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });

/** A pair in order, or undefined ends, as builder bounds. */
const orderedPair = <T>(arb: fc.Arbitrary<T>, compare: (a: T, b: T) => number) =>
  fc
    .tuple(fc.option(arb, { nil: undefined }), fc.option(arb, { nil: undefined }))
    .map(([a, b]) => (a !== undefined && b !== undefined && compare(a, b) > 0 ? [b, a] : [a, b]));

/** A valid call of each builder, as a thunk, with options chosen to fit. */
const validField: fc.Arbitrary<Field> = fc.oneof(
  fc
    .tuple(
      annotations,
      optional,
      orderedPair(count, (a, b) => a - b),
      fc.constantFrom('text', 'email', 'url', 'date', 'dateTime'),
    )
    .map(([notes, opt, [minLength, maxLength], kind]) =>
      kind === 'text'
        ? ask.text({ ...notes, ...opt, minLength, maxLength })
        : ask[kind as 'email' | 'url' | 'date' | 'dateTime']({ ...notes, ...opt }),
    ),
  fc
    .tuple(
      annotations,
      optional,
      orderedPair(bound, (a, b) => a - b),
      fc.boolean(),
      fc.double({ min: 0, max: 1, noNaN: true }),
    )
    .map(([notes, opt, [min, max], whole, at]) => {
      const low = whole && min !== undefined ? Math.ceil(min) : min;
      const high = whole && max !== undefined ? Math.max(Math.floor(max), low ?? Math.floor(max)) : max;
      // Clamped: low + (high - low) * at can round outside [low, high] for tiny or huge bounds.
      const span =
        low !== undefined && high !== undefined
          ? Math.min(Math.max(low + (high - low) * at, low), high)
          : (low ?? high ?? 0);
      const fallback = whole
        ? Math.min(Math.max(Math.round(span), low ?? -Infinity), high ?? Infinity)
        : span;
      const options = { ...notes, ...opt, min: low, max: high, default: fallback };
      return whole ? ask.integer(options) : ask.number(options);
    }),
  fc
    .tuple(annotations, optional, fc.option(fc.boolean(), { nil: undefined }))
    .map(([notes, opt, fallback]) => ask.boolean({ ...notes, ...opt, default: fallback })),
  fc
    .tuple(
      annotations,
      optional,
      fc.uniqueArray(option, { minLength: 1, maxLength: 6 }),
      fc.boolean(),
      fc.nat(),
    )
    .map(([notes, opt, values, titled, pick]) => {
      const fallback = values[pick % values.length];
      return titled
        ? ask.choice(Object.fromEntries(values.map((value) => [value, value.toUpperCase()])), {
            ...notes,
            ...opt,
            default: fallback,
          })
        : ask.choice(values, { ...notes, ...opt, default: fallback });
    }),
  fc
    .tuple(
      annotations,
      optional,
      fc.uniqueArray(option, { minLength: 1, maxLength: 6 }),
      fc.boolean(),
      count,
      count,
    )
    .map(([notes, opt, values, titled, a, b]) => {
      const min = Math.min(a, b, values.length);
      const max = Math.max(Math.min(Math.max(a, b), values.length), min);
      const options = { ...notes, ...opt, min, max, default: values.slice(0, min) };
      return titled
        ? ask.many(Object.fromEntries(values.map((value) => [value, `Pick ${value}`])), options)
        : ask.many(values, options);
    }),
);

const validForm = fc
  .dictionary(fc.string({ minLength: 1, maxLength: 10 }), validField, { maxKeys: 6 })
  .map((fields) => ask.form(fields));

/** Builder calls with arbitrary options, most of them wrong. */
const wildField = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('text', 'email', 'url', 'date', 'dateTime', 'number', 'integer', 'boolean'),
      fc.anything(),
    )
    .map(
      ([kind, opts]) =>
        () =>
          (ask[kind as 'text'] as (o: unknown) => Field)(opts),
    ),
  fc.tuple(fc.constantFrom('choice', 'many'), fc.anything(), fc.anything()).map(
    ([kind, values, opts]) =>
      () =>
        (ask[kind as 'choice'] as (v: unknown, o: unknown) => Field)(values, opts),
  ),
  fc.tuple(fc.array(fc.string(), { maxLength: 4 }), fc.anything(), fc.anything(), fc.anything()).map(
    ([values, min, max, fallback]) =>
      () =>
        ask.many(values, { min, max, default: fallback } as never),
  ),
  fc.tuple(fc.anything(), fc.anything(), fc.anything()).map(
    ([min, max, fallback]) =>
      () =>
        ask.integer({ min, max, default: fallback } as never),
  ),
);

describe('builder outputs fit the subset and the spec schema', () => {
  it('every valid builder call passes checkRequestedSchema and ElicitRequestFormParams', () => {
    fc.assert(
      fc.property(validField, (field) => {
        const { schema } = prepareQuestion(field);
        expect(checkRequestedSchema(schema)).toEqual([]);
        expect(specAccepts(schema)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('every form of valid fields passes both', () => {
    fc.assert(
      fc.property(validForm, (form) => {
        expect(checkRequestedSchema(form.schema)).toEqual([]);
        expect(specAccepts(form.schema)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a builder given anything either throws a SchemaError or returns a question that passes both', () => {
    fc.assert(
      fc.property(wildField, (build) => {
        let field: Field;
        try {
          field = build();
        } catch (error) {
          expect(error).toBeInstanceOf(SchemaError);
          expect((error as SchemaError).problems.length).toBeGreaterThan(0);
          return;
        }
        const { schema } = prepareQuestion(field);
        expect(checkRequestedSchema(schema)).toEqual([]);
        expect(specAccepts(schema)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

/** An answer that fits the described field. */
function fittingValue(field: FormField): fc.Arbitrary<FormValue> {
  const options = (field.options ?? []).map((item) => item.value);
  switch (field.kind) {
    case 'text':
      return fc.string({ unit: 'binary', minLength: field.minLength ?? 0, maxLength: field.maxLength ?? 20 });
    case 'email':
      return fc
        .tuple(option, option)
        .map(
          ([user, host]) =>
            `${user.replace(/[-_]+$/, '') || 'x'}@${host.replace(/[-_]/g, '') || 'h'}.example`,
        );
    case 'uri':
      return option.map((path) => `https://example.com/${path}`);
    case 'date':
      return fc
        .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    case 'date-time':
      return fc
        .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'number':
      return fc.double({
        min: field.minimum ?? -1e9,
        max: field.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'integer':
      return fc.integer({ min: Math.ceil(field.minimum ?? -1e9), max: Math.floor(field.maximum ?? 1e9) });
    case 'boolean':
      return fc.boolean();
    case 'choice':
      return fc.constantFrom(...options);
    case 'many':
      return fc.shuffledSubarray(options, {
        minLength: field.minItems ?? 0,
        maxLength: Math.min(field.maxItems ?? options.length, options.length),
      });
  }
}

/** A form and content that fits it, built field by field. */
const formWithFittingContent = validForm.chain((form) => {
  const fields = listFields(form.schema);
  const entries = fields.map((field) =>
    field.required
      ? fittingValue(field).map((value) => [field.name, value] as const)
      : fc.option(fittingValue(field), { nil: undefined }).map((value) => [field.name, value] as const),
  );
  return fc.tuple(fc.constant(form), fc.tuple(...entries)).map(([built, pairs]) => ({
    form: built,
    content: Object.fromEntries(pairs.filter(([, value]) => value !== undefined)),
  }));
});

describe('parseContent on generated content', () => {
  it('accepts every content built to fit, unchanged, and the spec accepts it as an answer', () => {
    fc.assert(
      fc.property(formWithFittingContent, ({ form, content }) => {
        const result = parseContent(form, content);
        expect(result).toEqual({ ok: true, value: content });
        expect(validElicitResult({ action: 'accept', content })).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('answers any content with a value or per-field errors, and never throws', () => {
    const anyContent = fc.oneof(
      fc.anything(),
      fc.dictionary(fc.string({ maxLength: 10 }), fc.anything()),
      fc.dictionary(
        fc.string({ maxLength: 10 }),
        fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.array(fc.string())),
      ),
    );
    fc.assert(
      fc.property(validForm, anyContent, (form, content) => {
        const result = parseContent(form, content);
        const fields = listFields(form.schema);
        if (result.ok) {
          // Everything accepted is a valid spec answer, holds only asked fields, and each fits.
          expect(validElicitResult({ action: 'accept', content: result.value })).toBe(true);
          const value = result.value as Record<string, FormValue>;
          for (const field of fields) {
            const answer = Object.hasOwn(value, field.name) ? value[field.name] : undefined;
            expect(checkField(field, answer)).toBeUndefined();
          }
          return;
        }
        expect(result.errors.length).toBeGreaterThan(0);
        const names = new Set(result.errors.map((error) => error.field));
        expect(names.size).toBe(result.errors.length);
        const known = new Set([
          '',
          ...fields.map((field) => field.name),
          ...(content !== null && typeof content === 'object' ? Object.keys(content) : []),
        ]);
        for (const error of result.errors) {
          expect(known.has(error.field)).toBe(true);
          expect(error.message).toMatch(/^[A-Z"]/);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('a bare question parses its own generated answers and returns them unwrapped', () => {
    fc.assert(
      fc.property(
        validField.chain((field) => {
          const [described] = listFields(prepareQuestion(field).schema);
          return fc.tuple(fc.constant(field), fittingValue(described!));
        }),
        ([field, value]) => {
          expect(parseContent(field, { value })).toEqual({ ok: true, value });
        },
      ),
      { numRuns: 300 },
    );
  });
});
