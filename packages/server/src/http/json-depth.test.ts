import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-depth.js';

/** The nesting depth of a parsed JSON value, the slow obvious way. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('nestsDeeperThan', () => {
  it('agrees with the depth of the parsed value, for any JSON text and limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, max) => {
        const text = JSON.stringify(value);
        expect(nestsDeeperThan(text, max)).toBe(depthOf(JSON.parse(text)) > max);
      }),
      { numRuns: 2000 },
    );
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(['"', ['\\', [1]]]), 2)).toBe(true);
  });

  it('answers for a million levels without recursion', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(nestsDeeperThan(deep, 100)).toBe(true);
    expect(nestsDeeperThan(deep, 1_000_000)).toBe(false);
  });
});
