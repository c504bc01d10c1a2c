import { spawn } from 'node:child_process';
import { childEnv, FIXTURE_SCRIPT, type FixtureEnv } from './fixture-env.js';

/** The fixture server running over HTTP on a free loopback port. */
export interface HttpFixture {
  /** The endpoint, e.g. `http://127.0.0.1:40123/mcp`. */
  readonly url: string;
  /** The process id (to read its memory). */
  readonly pid: number;
  /** What the process wrote to stderr so far (its log). */
  log(): string;
  stop(): Promise<void>;
  /** Ends the process at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
}

/**
 * Starts the fixture with `PARLEY_FIXTURE_TRANSPORT=http` (or another fixture `script` that prints
 * its endpoint URL on its first line); resolves once it printed its URL.
 */
export async function startHttpFixture(env: FixtureEnv = {}, script = FIXTURE_SCRIPT): Promise<HttpFixture> {
  const child = spawn(process.execPath, [script], {
    env: childEnv({ ...env, PARLEY_FIXTURE_TRANSPORT: 'http' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline > 0) resolve(stdout.slice(0, newline).trim());
    });
    child.once('exit', (code) =>
      reject(new Error(`the HTTP fixture exited with ${code} before printing its URL:\n${stderr}`)),
    );
  });
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return { url, pid: child.pid!, log: () => stderr, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}
