import { describe, expect, it } from 'vitest';
import { canonical, runProgram } from './program.js';

const modules = { '@parley/core': { double: (n: number) => n * 2 } };

describe('runProgram', () => {
  it('gives the value of the last line, types stripped and imports looked up', async () => {
    const code = "import { double } from '@parley/core';\n\nconst n: number = 21;\ndouble(n);\n// done\n\n";
    expect(await runProgram(code, modules)).toEqual({ ok: true, value: '42' });
  });

  it('awaits a last line that is a promise', async () => {
    expect(await runProgram('Promise.resolve({ b: 1, a: [2] })', modules)).toEqual({
      ok: true,
      value: '{"a":[2],"b":1}',
    });
  });

  it('says what went wrong: an import from elsewhere, a throw, code that does not parse, no last line', async () => {
    expect(await runProgram("import fs from 'node:fs';\nfs", modules)).toEqual({
      ok: false,
      error: "Error: Only @parley/core can be imported here, not 'node:fs'",
    });
    expect(await runProgram("throw new TypeError('no')\n1", modules)).toEqual({
      ok: false,
      error: 'TypeError: no',
    });
    const parse = await runProgram('const x = {\n', modules);
    expect(parse.ok ? '' : parse.error).toMatch(
      /^The code does not parse: .*The last line must be a value\.$/,
    );
    expect(await runProgram('// nothing\n\n', modules)).toEqual({
      ok: false,
      error: 'Write a value on the last line: the Check compares it with the answer.',
    });
  });
});

describe('canonical', () => {
  it('reads equal values the same whatever the key order, and undefined as undefined', () => {
    expect(canonical({ b: { d: 1, c: 2 }, a: null })).toBe(canonical({ a: null, b: { c: 2, d: 1 } }));
    expect(canonical(undefined)).toBe('undefined');
    expect(canonical(['x', 1, true])).toBe('["x",1,true]');
  });
});
