import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode } from '@parley/testing';
import { afterAll, describe, expect, it } from 'vitest';

// The built command as a process, as `npm create parley` runs it.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), 'create-parley-bin-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const create = (...args: string[]) => runNode([BIN, ...args], { cwd });

describe('create-parley', () => {
  it('makes the project and says what to run next', async () => {
    const { code, stdout } = await create('made-here', '--transport', 'stdio');
    expect(code).toBe(0);
    expect(stdout).toContain('Created made-here (stdio) in made-here');
    expect(stdout).toContain('  cd made-here\n  npm install\n  npm test\n');
    expect(existsSync(join(cwd, 'made-here', 'src', 'server.ts'))).toBe(true);
  });

  it('exits 2 with a steer on stderr for a mistake, writing nothing', async () => {
    const { code, stdout, stderr } = await create('not-made', '--transport', 'stdio', '--oauth');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'create-parley: OAuth protects an HTTP endpoint, and a stdio server has none: use --transport http, or drop --oauth.\n',
    );
    expect(existsSync(join(cwd, 'not-made'))).toBe(false);
  });

  it('prints its usage on --help', async () => {
    const { code, stdout } = await create('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: npm create parley@latest <directory>/);
  });
});
