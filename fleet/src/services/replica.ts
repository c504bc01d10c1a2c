import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Tokens, USERS } from '../users.js';

/** The built Brightgrid HTTP server each replica runs. */
const BRIGHTGRID = fileURLToPath(new URL('../../../examples/brightgrid/dist/http.js', import.meta.url));

/** What every replica shares. */
export interface ReplicaShared {
  /** The folder of the SQLite database all replicas use (WAL). */
  readonly dataDir: string;
  /** The balancer's origin: connect links and the store's origin checks use it. */
  readonly publicUrl: string;
  readonly redisUrl: string;
  /** Where each replica's output goes (`<name>.log`). */
  readonly logDir: string;
}

/**
 * One Brightgrid replica: a real process on a fixed loopback port, with the key ring it was started
 * with and the bearer tokens it printed. Start, kill (SIGKILL) and stop (SIGTERM) it at will.
 */
export class Replica {
  readonly name: string;
  readonly port: number;
  readonly #shared: ReplicaShared;
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  #ring: readonly string[] = [];
  #tokens: Tokens | undefined;
  #starts = 0;

  constructor(name: string, port: number, shared: ReplicaShared) {
    this.name = name;
    this.port = port;
    this.#shared = shared;
  }

  /** How nginx names it in `X-Upstream`. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.#child !== undefined;
  }

  /** The key ids of its ring, sealing key first. */
  get ring(): readonly string[] {
    return this.#ring;
  }

  /** The tokens this run of the replica printed (a graceful stop revokes them). */
  get tokens(): Tokens | undefined {
    return this.#tokens;
  }

  get starts(): number {
    return this.#starts;
  }

  /**
   * Starts it with `PARLEY_STATE_KEYS=keys` and waits until it serves and printed its tokens.
   * `sessionRouter: false` starts it without the Redis session router (for sticky routing).
   */
  async start(keys: string, options: { sessionRouter?: boolean } = {}): Promise<void> {
    if (this.#child) throw new Error(`${this.name} is already running.`);
    this.#starts++;
    this.#ring = keys.split(',').map((pair) => pair.slice(0, pair.indexOf(':')));
    const log = join(this.#shared.logDir, `${this.name}.log`);
    appendFileSync(
      log,
      `\n--- start ${this.#starts}, ring ${this.#ring.join(',')}, ${new Date().toISOString()}\n`,
    );
    const child = spawn(process.execPath, [BRIGHTGRID, '--port', String(this.port)], {
      env: {
        ...process.env,
        BRIGHTGRID_DATA: this.#shared.dataDir,
        BRIGHTGRID_PUBLIC_URL: this.#shared.publicUrl,
        REDIS_URL: this.#shared.redisUrl,
        PARLEY_STATE_KEYS: keys,
        BRIGHTGRID_REPLICA: this.name,
        BRIGHTGRID_SESSION_ROUTER: options.sessionRouter === false ? 'off' : 'redis',
        // alice and bob stand for hundreds of people here: each opens hundreds of connect links
        // in minutes, past the per-user cap on links kept (50).
        BRIGHTGRID_KEPT_LINKS_PER_USER: '100000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    this.#exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        appendFileSync(log, `--- exit ${code ?? signal}\n`);
        if (this.#child === child) this.#child = undefined;
        resolve();
      }),
    );
    child.stderr!.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
    const tokens: Record<string, string> = {};
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.name} did not start within 60 s (see ${log}).`)),
        60_000,
      );
      createInterface({ input: child.stdout! }).on('line', (line) => {
        appendFileSync(log, `${line}\n`);
        const token = /^Token for (\w+): Authorization: Bearer (\S+)$/.exec(line);
        if (token) tokens[token[1]!] = token[2]!;
        if (USERS.every((user) => tokens[user.name])) {
          clearTimeout(timer);
          resolve();
        }
      });
      void this.#exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited while starting (see ${log}).`));
      });
    });
    await ready;
    this.#tokens = tokens as Tokens;
  }

  /** SIGKILL: a crash. Nothing is cleaned up; requests inside it are cut off. */
  async kill(): Promise<void> {
    this.#child?.kill('SIGKILL');
    await this.#exited;
  }

  /** SIGTERM: a graceful stop (Brightgrid closes its server and revokes the tokens it printed). */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await this.#exited;
    clearTimeout(timer);
  }
}
