import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkArgs } from './schema.js';

/** Collects unhandled rejections while `body` runs and a little after. */
async function unhandledDuring(body: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const record = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', record);
  try {
    await body();
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off('unhandledRejection', record);
  }
  return seen;
}

describe('checkArgs', () => {
  it('checks a schema of built-in types without a promise', () => {
    const schema = z.object({ name: z.string().min(2), count: z.number().int().optional() });
    expect(checkArgs(schema, { name: 'Ann' })).toEqual({ ok: true, value: { name: 'Ann' } });
    expect(checkArgs(schema, { name: 'A', count: 1.5 })).toEqual({
      ok: false,
      message: expect.stringMatching(/^name: .*; count: /),
      // Each issue with the path to its value: what askMissing asks again.
      issues: [
        { path: ['name'], message: expect.any(String) },
        { path: ['count'], message: expect.any(String) },
      ],
    });
  });

  it('runs an async refinement once, and its rejection reaches the caller and nowhere else', async () => {
    let runs = 0;
    const schema = z.object({
      site: z.string().refine(async (value) => {
        runs++;
        await null;
        return new URL(value).protocol === 'https:';
      }, 'Use an https address'),
    });
    const unhandled = await unhandledDuring(async () => {
      await expect(checkArgs(schema, { site: 'not a url' })).rejects.toThrow(/Invalid URL/);
    });
    expect(unhandled).toEqual([]);
    expect(runs).toBe(1);
    await expect(checkArgs(schema, { site: 'http://example.com' })).resolves.toEqual({
      ok: false,
      message: 'site: Use an https address',
      issues: [{ path: ['site'], message: 'Use an https address' }],
    });
    await expect(checkArgs(schema, { site: 'https://example.com' })).resolves.toEqual({
      ok: true,
      value: { site: 'https://example.com' },
    });
    expect(runs).toBe(3);
  });

  it('runs synchronous refinements and transforms once, with their messages and output', async () => {
    let runs = 0;
    const schema = z.object({ name: z.string().transform((value) => value.trim()), age: z.number() }).refine(
      (value) => {
        runs++;
        return value.age >= 18;
      },
      { message: 'Adults only', path: ['age'] },
    );
    expect(await checkArgs(schema, { name: ' Ann ', age: 30 })).toEqual({
      ok: true,
      value: { name: 'Ann', age: 30 },
    });
    expect(await checkArgs(schema, { name: 'Bo', age: 12 })).toEqual({
      ok: false,
      message: 'age: Adults only',
      issues: [{ path: ['age'], message: 'Adults only' }],
    });
    expect(runs).toBe(2);
  });
});
