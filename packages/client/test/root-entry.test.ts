// `@parley/client` must not load the terminal host: a host that never draws in a terminal (the lab,
// a web back end) should not pay for @clack/prompts or `open`. Each check imports the built entry in
// a fresh Node process with module hooks recording every module it resolves.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const importer = fileURLToPath(new URL('./fixtures/import-recording-loads.mjs', import.meta.url));
const TERMINAL_CODE = /\/node_modules\/@clack\/|\/node_modules\/open\/|\/packages\/client\/dist\/terminal\//;

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'parley-loads-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Every module URL a fresh process resolves while importing `specifier`. */
async function modulesLoadedBy(specifier: string): Promise<string[]> {
  const file = join(folder, `${specifier.replaceAll('/', '_')}.txt`);
  const run = await runNode([importer, specifier], { env: { PARLEY_LOADS_FILE: file } });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
}

describe('the root entry, @parley/client', () => {
  it('loads the client (from dist) and none of the terminal host', async () => {
    const loaded = await modulesLoadedBy('@parley/client');
    expect(loaded.some((url) => url.endsWith('/packages/client/dist/index.js'))).toBe(true);
    expect(loaded.filter((url) => TERMINAL_CODE.test(url))).toEqual([]);
  });
});

describe('@parley/client/terminal', () => {
  it('loads the terminal host: what the root entry must not', async () => {
    const loaded = await modulesLoadedBy('@parley/client/terminal');
    const terminal = loaded.filter((url) => TERMINAL_CODE.test(url));
    expect(terminal.some((url) => url.includes('/node_modules/@clack/prompts/'))).toBe(true);
    expect(terminal.some((url) => url.includes('/node_modules/open/'))).toBe(true);
    expect(terminal.some((url) => url.endsWith('/packages/client/dist/terminal/terminal-ui.js'))).toBe(true);
  });
});
