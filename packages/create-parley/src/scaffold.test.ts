import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScaffoldOptions } from './options.js';
import { NAME_PLACEHOLDER, scaffold } from './scaffold.js';

const cwd = mkdtempSync(join(tmpdir(), 'create-parley-unit-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const make = (directory: string, choice: Partial<ScaffoldOptions> = {}) =>
  scaffold({ directory, transport: 'http', oauth: false, ...choice }, cwd, '1.2.3');
const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

const COMMON = [
  '.gitignore',
  'README.md',
  'package.json',
  'src/bookings.ts',
  'src/main.ts',
  'src/server.ts',
  'test/server.test.ts',
  'tsconfig.build.json',
  'tsconfig.json',
];

describe('scaffold', () => {
  it('writes an HTTP project', () => {
    const made = make('http-app');
    expect(made.files).toEqual([...COMMON, 'scripts/inspect.ts', 'src/http.ts', 'test/http.test.ts'].sort());
    expect(read(made.root, 'src/server.ts')).toContain("createServer({ name: 'http-app'");
    expect(read(made.root, 'src/http.ts')).not.toContain('oauth');
  });

  it('writes a stdio project: no HTTP, the lab started by the parley command', () => {
    const made = make('stdio-app', { transport: 'stdio' });
    expect(made.files).toEqual([...COMMON, 'test/stdio.test.ts'].sort());
    expect(read(made.root, 'src/main.ts')).toContain('.stdio()');
    const manifest = JSON.parse(read(made.root, 'package.json'));
    expect(manifest.scripts.inspect).toBe('npm run build && parley lab "node dist/main.js" --open');
    expect(manifest.devDependencies['@parley/lab']).toBeUndefined();
  });

  it('writes an OAuth-protected HTTP project, with jose and a stand-in issuer for its tests', () => {
    const made = make('oauth-app', { oauth: true });
    expect(made.files).toEqual(
      [...COMMON, 'scripts/inspect.ts', 'src/http.ts', 'test/http.test.ts', 'test/issuer.ts'].sort(),
    );
    expect(read(made.root, 'src/http.ts')).toContain('protectedResource(');
    expect(JSON.parse(read(made.root, 'package.json')).dependencies.jose).toMatch(/^\^6\./);
    expect(read(made.root, 'README.md')).toContain('OAUTH_ISSUER');
  });

  it('names the project after its folder, and depends on Parley at its own version', () => {
    const made = make('named');
    const manifest = JSON.parse(read(made.root, 'package.json'));
    expect(manifest).toMatchObject({ name: 'named', private: true, type: 'module' });
    expect(manifest.dependencies['@parley/server']).toBe('^1.2.3');
    expect(manifest.devDependencies).toMatchObject({ '@parley/client': '^1.2.3', '@parley/cli': '^1.2.3' });
    expect(Object.keys(manifest.scripts)).toEqual(
      expect.arrayContaining(['dev', 'start', 'test', 'inspect']),
    );
    for (const file of made.files) expect(read(made.root, file)).not.toContain(NAME_PLACEHOLDER);
  });

  it('writes into an empty folder, and refuses one with files in it', () => {
    mkdirSync(join(cwd, 'empty'));
    expect(make('empty').name).toBe('empty');
    mkdirSync(join(cwd, 'full'));
    writeFileSync(join(cwd, 'full', 'keep.txt'), 'mine');
    expect(() => make('full')).toThrow(/already exists and is not empty: pick a new folder name/);
    expect(read(join(cwd, 'full'), 'keep.txt')).toBe('mine');
  });

  it('refuses a folder name npm would refuse as a package name', () => {
    expect(() => make('My Server')).toThrow(/"My Server" cannot be a package name: use lower-case letters/);
  });
});
