import { type ChildProcess, spawn } from 'node:child_process';
import { get } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SETTLE_TIMEOUT_MS } from '@parley/testing';

/** The compiled fixture (`npx tsc -b packages/server/test` builds it). */
export const PENDING_FIXTURE = fileURLToPath(new URL('../dist/faults/pending-fixture.js', import.meta.url));

/** What the fault fixture reports: its stderr lines, awaited one pattern at a time. */
export class StderrLines {
  readonly lines: string[] = [];
  readonly #waiters = new Set<() => void>();

  constructor(stream: NodeJS.ReadableStream) {
    createInterface({ input: stream }).on('line', (line) => {
      this.lines.push(line);
      for (const wake of this.#waiters) wake();
    });
  }

  /** Resolves when a line at index `from` or later equals `line`; rejects after `ms`. */
  async waitFor(line: string, ms = SETTLE_TIMEOUT_MS, from = 0): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.lines.slice(from).includes(line)) {
      if (Date.now() > deadline)
        throw new Error(`No "${line}" within ${ms} ms; got:\n${this.lines.join('\n')}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          resolve();
        };
        this.#waiters.add(wake);
        setTimeout(wake, 50);
      });
    }
  }
}

/** What the fixture's `/stats` reports. */
export interface PendingStats {
  readonly pending: number;
  readonly rss: number;
  readonly heapUsed: number;
  /** Connections open now, and the most open at once. */
  readonly connections: number;
  readonly peakConnections: number;
}

/**
 * `/stats` on a connection of its own, closed after it: a kept-alive connection from an earlier
 * look may be one of the idle connections the server closes when a burst ends (the cap on idle
 * connections comes back), and a request written to it as it closes fails with "other side
 * closed". What the test measures is the server, not this side channel's connection reuse.
 */
function readStats(url: URL): Promise<PendingStats> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers: { connection: 'close' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString()) as PendingStats);
        } catch (error) {
          reject(error);
        }
      });
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** The fixture over HTTP, with --expose-gc so `/stats` measures live memory; `env` adds its settings. */
export async function startPendingHttp(
  timeoutMs?: number,
  env: Readonly<Record<string, string>> = {},
): Promise<{
  url: string;
  stats(): Promise<PendingStats>;
  stderr: StderrLines;
  stop(): Promise<void>;
}> {
  const child: ChildProcess = spawn(process.execPath, ['--expose-gc', PENDING_FIXTURE], {
    env: {
      ...process.env,
      PENDING_TRANSPORT: 'http',
      ...(timeoutMs !== undefined && { PENDING_TIMEOUT_MS: String(timeoutMs) }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr = new StderrLines(child.stderr!);
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`the fixture exited with ${code}:\n${stderr.lines.join('\n')}`)),
    );
  });
  return {
    url,
    stderr,
    stats: () => readStats(new URL('/stats', url)),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
