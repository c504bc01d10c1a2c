import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PROCESS_START_TIMEOUT_MS } from '@parley/testing';

/** The built Brightgrid (e2e tests run dist/, the code `npm start` runs). */
export const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** A fresh data folder, so each test file starts from the seeded store only. */
export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'brightgrid-e2e-'));
}

/** A running child process whose stdout lines can be awaited. */
export class Running {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly stderr: string[] = [];
  readonly #waiters: (() => void)[] = [];
  #closed = false;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: readonly string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    createInterface({ input: this.child.stderr! }).on('line', (line) => this.stderr.push(line));
    // 'close', not 'exit': once it exited, its last lines may still be on their way.
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code, signal) => resolve({ code, signal })),
    );
    void this.exited.then(() => {
      this.#closed = true;
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  /** The first stdout line matching `pattern` (its match), waiting up to `ms`. */
  async line(pattern: RegExp, ms = PROCESS_START_TIMEOUT_MS): Promise<RegExpMatchArray> {
    const deadline = Date.now() + ms;
    for (;;) {
      for (const line of this.lines) {
        const match = pattern.exec(line);
        if (match) return match;
      }
      if (this.#closed || Date.now() > deadline) {
        throw new Error(
          `No line matching ${pattern} (exit ${this.child.exitCode}).\nstdout:\n${this.lines.join('\n')}\nstderr:\n${this.stderr.join('\n')}`,
        );
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Sends `signal` and waits for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM') {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** Brightgrid over HTTP as a real process (`node dist/http.js`). */
export interface BrightgridProcess {
  readonly process: Running;
  readonly url: string;
  readonly origin: string;
  readonly tokens: { alice: string; bob: string };
  readonly dataDir: string;
  /** Brightgrid ID's issuer, when started with `oauth`. */
  readonly issuer?: string;
}

export async function startBrightgridProcess(
  dataDir = freshDataDir(),
  env: Record<string, string> = {},
  options: { oauth?: boolean } = {},
): Promise<BrightgridProcess> {
  const running = new Running([join(DIST, 'http.js'), ...(options.oauth ? ['--oauth'] : [])], {
    BRIGHTGRID_DATA: dataDir,
    ...env,
  });
  const url = (await running.line(/^Brightgrid: (http:\/\/\S+\/mcp)$/))[1]!;
  const issuer = options.oauth ? (await running.line(/^Brightgrid ID \(sign-in\): (\S+)$/))[1]! : undefined;
  const alice = (await running.line(/^Token for alice: Authorization: Bearer (\S+)$/))[1]!;
  const bob = (await running.line(/^Token for bob: Authorization: Bearer (\S+)$/))[1]!;
  return {
    process: running,
    url,
    origin: new URL(url).origin,
    tokens: { alice, bob },
    dataDir,
    ...(issuer !== undefined && { issuer }),
  };
}

/** The command that runs Brightgrid over stdio, for `connect()`. */
export function stdioCommand(): string[] {
  return [process.execPath, join(DIST, 'stdio.js')];
}
