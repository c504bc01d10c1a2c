import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { npmInstall, pointAtTarballs, writeManifest } from '../src/project.js';
import { cleanEnv, run } from '../src/run.js';

const packs = inject('packs');
const createParley = packs.find((pack) => pack.name === 'create-parley')!;
const workspace = mkdtempSync(join(tmpdir(), 'parley-created-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/**
 * Runs an npm script of a made project until it prints a line that matches `pattern`, then `use`
 * with the match; the script and everything it started are stopped after that.
 */
async function whilePrinted(
  dir: string,
  script: string,
  pattern: RegExp,
  use: (match: RegExpExecArray) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  const child = spawn('npm', ['run', script], {
    cwd: dir,
    env: cleanEnv({ BROWSER: 'none', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let printed = '';
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      printed += `${line}\n`;
      const match = pattern.exec(line);
      if (match) return await use(match);
    }
    throw new Error(`npm run ${script} ended without printing ${pattern}:\n${printed}`);
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
  }
}

const VARIANTS = [
  { name: 'http-server', flags: [], kind: 'http' },
  { name: 'stdio-server', flags: ['--transport', 'stdio'], kind: 'stdio' },
  { name: 'oauth-server', flags: ['--oauth'], kind: 'oauth' },
] as const;

describe.each(VARIANTS)('npm create parley $name $flags', ({ name, flags, kind }) => {
  const dir = join(workspace, name);
  let manifest: { dependencies: Record<string, string>; devDependencies: Record<string, string> };

  beforeAll(async () => {
    // As `npm create parley@latest` runs it: npm exec with the package, here the packed one.
    const args = [
      'exec',
      '--yes',
      `--package=${createParley.tarball}`,
      '--',
      'create-parley',
      name,
      ...flags,
    ];
    const made = await run('npm', args, { cwd: workspace });
    expect(made.stdout).toContain(`Created ${name}`);
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    writeManifest(dir, pointAtTarballs(manifest, packs));
    await npmInstall(dir);
  });

  it('depends on Parley at the version of create-parley', () => {
    const parley = { ...manifest.dependencies, ...manifest.devDependencies };
    for (const name of ['@parley/server', '@parley/client', '@parley/cli'])
      expect(parley[name]).toBe(`^${createParley.version}`);
  });

  it('passes its own npm test, with Parley installed from the tarballs', async () => {
    const tested = await run('npm', ['test'], { cwd: dir });
    expect(tested.stdout).toMatch(/Tests\s+\d+ passed/);
    expect(tested.stdout).not.toMatch(/failed|skipped/);
  });

  it.runIf(kind !== 'oauth')('npm run inspect serves the lab on the server', async () => {
    await whilePrinted(dir, 'inspect', /^Lab: (http:\/\/\S+)/, async ([, lab]) => {
      const page = await fetch(lab!);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
    });
  });

  it.runIf(kind === 'http')('npm start serves the endpoint, and parley lists its tool', async () => {
    const serving = async ([, url]: RegExpExecArray) => {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const tools = await run(join(dir, 'node_modules', '.bin', 'parley'), ['tools', url!], { cwd: dir });
      expect(tools.stdout).toContain('book_table');
    };
    await whilePrinted(dir, 'start', /^MCP endpoint: (\S+)/, serving, { PORT: '0' });
  });

  it.runIf(kind === 'oauth')('npm start without OAUTH_ISSUER stops and names it', async () => {
    const failed = await run('npm', ['start'], { cwd: dir, env: { PORT: '0' } }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failed).toContain('Set OAUTH_ISSUER to your authorization server');
  });
});
