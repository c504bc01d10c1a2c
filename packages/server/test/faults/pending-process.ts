import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

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
  async waitFor(line: string, ms = 10_000, from = 0): Promise<void> {
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
    async stats() {
      const response = await fetch(new URL('/stats', url));
      return (await response.json()) as PendingStats;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
