// Runs the built `parley` (dist/bin.js) as a real process, the way a person or a script would.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const clientFixtures = new URL('../../client/test/fixtures/', import.meta.url);

/** A fixture server of @parley/client's tests, by file name. */
export const fixture = (name: string): string => fileURLToPath(new URL(name, clientFixtures));

/** The fixture server as a quoted command line, as a person would type it. */
export const stdioTarget = (...flags: string[]): string =>
  ['node', `"${fixture('stdio-server.mjs')}"`, ...flags].join(' ');

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs parley with no terminal (stdin is a pipe) and collects what it printed. */
export function runParley(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}
