import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importedPackages } from '../src/imports.js';
import { run } from '../src/run.js';
import { moduleSubpaths, ROOT } from '../src/workspace.js';

const packs = inject('packs');
const unpacked = mkdtempSync(join(tmpdir(), 'parley-unpacked-'));
afterAll(() => rmSync(unpacked, { recursive: true, force: true }));
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

it('packs every publishable workspace package', () => {
  const names = packs.map((pack) => pack.name);
  for (const name of ['@parley/core', '@parley/server', '@parley/client', '@parley/cli', 'create-parley'])
    expect(names).toContain(name);
});

it('gives every package one version, as the changesets fixed group does', () => {
  expect(new Set(packs.map((pack) => pack.version)).size).toBe(1);
});

describe.each(packs.map((pack) => [pack.name, pack] as const))('%s', (_name, pack) => {
  const folder = join(unpacked, pack.name.replace('/', '+'));
  beforeAll(async () => {
    mkdirSync(folder);
    await run('tar', ['-xzf', pack.tarball, '-C', folder], { cwd: unpacked });
  });

  it('ships its LICENSE (the repository MIT license), CHANGELOG.md and README.md', () => {
    expect(pack.files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md']));
    expect(readFileSync(join(folder, 'package', 'LICENSE'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'LICENSE'), 'utf8'),
    );
    expect(readFileSync(join(folder, 'package', 'CHANGELOG.md'), 'utf8')).toMatch(
      new RegExp(`^# ${pack.name}\\n[\\s\\S]*## ${pack.version.replaceAll('.', '\\.')}\\n`),
    );
  });

  it('declares every package its code imports', () => {
    const dist = join(folder, 'package', 'dist');
    const declared = new Set([
      pack.name,
      ...Object.keys(pack.manifest.dependencies ?? {}),
      ...Object.keys(pack.manifest.peerDependencies ?? {}),
    ]);
    const undeclared = new Map<string, string>();
    for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
      if (!/\.js$/.test(file)) continue;
      for (const name of importedPackages(readFileSync(join(dist, file), 'utf8')))
        if (!declared.has(name)) undeclared.set(name, `dist/${file}`);
    }
    expect(Object.fromEntries(undeclared), 'imported by these files, but not in dependencies').toEqual({});
  });

  it('publishes as it is (npm publish --dry-run: public, provenance asked, nothing corrected)', async () => {
    expect(pack.manifest).toMatchObject({ publishConfig: { access: 'public', provenance: true } });
    const { stderr } = await run('npm', ['publish', '--dry-run', pack.tarball], { cwd: unpacked });
    expect(stderr).toContain(
      `Publishing to https://registry.npmjs.org/ with tag latest and public access (dry-run)`,
    );
    expect(stderr).not.toMatch(/auto-corrected|errors corrected/);
  });

  it('passes publint (strict: warnings fail)', async () => {
    await run(bin('publint'), ['run', '--strict', pack.tarball], { cwd: ROOT });
  });

  // Its modules, not its stylesheets; a package with none (create-parley: a command) has no types.
  const modules = moduleSubpaths(pack.manifest);
  it.runIf(modules.length > 0)('passes @arethetypeswrong/cli (ESM-only profile)', async () => {
    const args = [
      '--profile',
      'esm-only',
      '--format',
      'ascii',
      '--entrypoints',
      ...modules,
      '--',
      pack.tarball,
    ];
    await run(bin('attw'), args, { cwd: ROOT });
  });
});
