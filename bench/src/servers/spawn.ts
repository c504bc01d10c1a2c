import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ServerKind } from './kinds.js';
import type { ServerStats } from './side-channel.js';
import { SideChannelClient, type StatsSource } from './side-channel-client.js';

export const SERVER_MAIN = fileURLToPath(new URL('./main.js', import.meta.url));

export interface SpawnOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** The server script to run (default: SERVER_MAIN beside this file; tests pass the built one). */
  readonly main?: string;
}

/** What a server wrote to stderr: a count and the first few lines, for the report. */
export interface ServerLog {
  readonly lines: number;
  readonly first: readonly string[];
}

const LOG_LINES_KEPT = 5;

/** A benchmark server running in its own process, reachable over loopback HTTP. */
export class ServerProcess implements StatsSource {
  readonly kind: ServerKind;
  readonly url: string;
  /** The URL of each server in the process, by kind, for a process serving several (`parley-features`). */
  readonly variants: Readonly<Record<string, string>>;
  readonly #child: ChildProcess;
  readonly #exited: Promise<unknown>;
  readonly #side: SideChannelClient;
  readonly #log = { lines: 0, first: [] as string[] };

  private constructor(
    kind: ServerKind,
    url: string,
    variants: Readonly<Record<string, string>>,
    child: ChildProcess,
  ) {
    this.kind = kind;
    this.url = url;
    this.variants = variants;
    this.#child = child;
    this.#exited = once(child, 'exit');
    this.#side = new SideChannelClient(url, kind);
    createInterface({ input: child.stderr! }).on('line', (line) => {
      this.#log.lines++;
      if (this.#log.first.length < LOG_LINES_KEPT) this.#log.first.push(line);
    });
  }

  /** What the server has written to stderr so far (kept off the console so the table stays readable). */
  get log(): ServerLog {
    return { lines: this.#log.lines, first: [...this.#log.first] };
  }

  /** Starts `kind` and waits until it prints its URL. */
  static async start(kind: ServerKind, options: SpawnOptions = {}): Promise<ServerProcess> {
    const child = spawn(process.execPath, ['--expose-gc', options.main ?? SERVER_MAIN, kind], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
    });
    const lines = createInterface({ input: child.stdout! });
    const stderr: string[] = [];
    const early = createInterface({ input: child.stderr! }).on('line', (line) => {
      if (stderr.length < LOG_LINES_KEPT) stderr.push(line);
    });
    const failed = once(child, 'exit').then(([code, signal]) => {
      const said = stderr.length > 0 ? `; it wrote: ${stderr.join(' | ')}` : '';
      throw new Error(
        `The ${kind} server exited (code ${code}, signal ${signal}) before it printed its URL${said}.`,
      );
    });
    const [line] = (await Promise.race([once(lines, 'line'), failed])) as [string];
    lines.close();
    early.close();
    const { url, variants = {} } = JSON.parse(line) as { url: string; variants?: Record<string, string> };
    return new ServerProcess(kind, url, variants, child);
  }

  /** The server's own CPU and memory; `gc` collects garbage first. */
  async stats(options: { gc?: boolean } = {}): Promise<ServerStats> {
    return this.#side.stats(options);
  }

  /** Starts the V8 CPU profiler inside the server (sampling every `intervalUs` microseconds). */
  async startProfile(intervalUs = 250): Promise<void> {
    await this.#side.get(`/profile/start?interval=${intervalUs}`);
  }

  /** Stops the profiler and returns the `.cpuprofile` JSON text. */
  stopProfile(): Promise<string> {
    return this.#side.get('/profile/stop');
  }

  /** Stops the server and waits for its process to exit. */
  async stop(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGTERM');
    await this.#exited;
  }
}

/** Total CPU time in microseconds between two readings. */
export function cpuMicros(before: ServerStats, after: ServerStats): number {
  return after.cpu.user + after.cpu.system - (before.cpu.user + before.cpu.system);
}
