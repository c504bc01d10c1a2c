import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as mini from 'zod/mini';
import { zodRunsAuthorCode } from './zod-author-code.js';

describe('zodRunsAuthorCode', () => {
  it('is false for schemas made only of zod types and built-in checks', () => {
    const plain = [
      z.object({ name: z.string().min(2).max(40), age: z.number().int().min(0).optional() }),
      z.object({ color: z.enum(['red', 'green']), when: z.iso.date(), tags: z.array(z.string()).max(3) }),
      z.object({ kind: z.literal('a'), n: z.number().default(3), u: z.union([z.string(), z.number()]) }),
      z.object({ r: z.record(z.string(), z.number()), t: z.tuple([z.string(), z.boolean()]) }),
      z.object({ s: z.string().nullable().catch('x'), e: z.email(), big: z.string().trim().toLowerCase() }),
      mini.object({ name: mini.string().check(mini.minLength(2)) }),
    ];
    for (const schema of plain) expect(zodRunsAuthorCode(schema)).toBe(false);
  });

  it('finds the author code anywhere inside: refinements, checks, transforms, codecs, custom, lazy', () => {
    const withCode = {
      refine: z.object({ a: z.string().refine(async () => true) }),
      superRefine: z.object({ a: z.string().superRefine(() => {}) }),
      check: z.object({ a: z.string().check(() => {}) }),
      objectRefine: z.object({ a: z.string() }).refine((v) => v.a !== ''),
      transform: z.object({ a: z.string().transform((v) => v.length) }),
      preprocess: z.object({ a: z.preprocess((v) => v, z.string()) }),
      codec: z.object({ a: z.codec(z.string(), z.number(), { decode: Number, encode: String }) }),
      custom: z.object({ a: z.custom<string>(() => true) }),
      lazy: z.object({ a: z.lazy(() => z.string()) }),
      deep: z.object({ a: z.array(z.union([z.number(), z.object({ b: z.string().refine(() => true) })])) }),
      optional: z.object({
        a: z
          .string()
          .refine(() => true)
          .optional()
          .default('x'),
      }),
      catchall: z.object({}).catchall(z.string().refine(() => true)),
      record: z.object({
        r: z.record(
          z.string(),
          z.string().transform((v) => v),
        ),
      }),
      mini: mini.object({ a: mini.string().check(mini.refine(() => true)) }),
    };
    for (const [name, schema] of Object.entries(withCode)) expect(zodRunsAuthorCode(schema), name).toBe(true);
  });

  it('walks a recursive schema once, and never calls a default value function', () => {
    let called = 0;
    interface Node {
      name: string;
      children: Node[];
    }
    const Node: z.ZodType<Node> = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    expect(zodRunsAuthorCode(z.object({ root: Node }))).toBe(false);
    const withDefault = z.object({
      at: z.string().default(() => {
        called++;
        return 'now';
      }),
    });
    expect(zodRunsAuthorCode(withDefault)).toBe(false);
    expect(called).toBe(0);
  });

  it('treats what is not a zod v4 schema as unknown', () => {
    expect(zodRunsAuthorCode({ '~standard': { vendor: 'zod', validate: () => ({ value: 1 }) } })).toBe(true);
    expect(zodRunsAuthorCode(null)).toBe(true);
  });
});
