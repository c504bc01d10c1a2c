import { describe, expect, it } from 'vitest';
import { parseOptions } from './options.js';

describe('parseOptions', () => {
  it('defaults to HTTP without OAuth', () => {
    expect(parseOptions(['my-server'])).toEqual({
      kind: 'scaffold',
      options: { directory: 'my-server', transport: 'http', oauth: false },
    });
  });

  it('takes stdio, and OAuth on HTTP', () => {
    expect(parseOptions(['a', '--transport', 'stdio'])).toMatchObject({ options: { transport: 'stdio' } });
    expect(parseOptions(['a', '--oauth'])).toMatchObject({ options: { transport: 'http', oauth: true } });
    expect(parseOptions(['--transport=http', 'a', '--oauth'])).toMatchObject({ options: { oauth: true } });
  });

  it('explains each mistake with what to do instead', () => {
    expect(parseOptions([])).toEqual({
      kind: 'error',
      message: 'Name the folder to create: npm create parley@latest my-server',
    });
    expect(parseOptions(['a', '--transport', 'sse'])).toMatchObject({
      message: expect.stringContaining('http or stdio'),
    });
    expect(parseOptions(['a', '--transport', 'stdio', '--oauth'])).toMatchObject({
      message: expect.stringContaining('use --transport http, or drop --oauth'),
    });
    expect(parseOptions(['a', 'b'])).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('One folder'),
    });
    expect(parseOptions(['a', '--template', 'x'])).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('--help'),
    });
  });

  it('prints help on --help and -h', () => {
    expect(parseOptions(['--help'])).toEqual({ kind: 'help' });
    expect(parseOptions(['a', '-h'])).toEqual({ kind: 'help' });
  });
});
