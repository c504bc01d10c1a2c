import { join } from 'node:path';
import { type GatewayProcess, startGatewayProcess } from '@parley/testing';

/** What every gateway replica of the run shares. */
export interface GatewayShared {
  /** The configuration every replica reads (its `fleet` section refers to the environment). */
  readonly config: unknown;
  /** The environment every replica gets (Redis, the key ring); each adds its own name. */
  readonly env: Readonly<Record<string, string>>;
  /** Where each replica's stderr goes (`<name>.log`). */
  readonly logDir: string;
}

/**
 * One `parley gateway` replica of the run: a real process on a fixed loopback port (nginx knows it
 * by that port), named by `GATEWAY_REPLICA`. Start, kill (SIGKILL) and stop (SIGTERM) it at will.
 */
export class GatewayReplica {
  readonly name: string;
  readonly port: number;
  readonly #shared: GatewayShared;
  #process: GatewayProcess | undefined;
  #starts = 0;

  constructor(name: string, port: number, shared: GatewayShared) {
    this.name = name;
    this.port = port;
    this.#shared = shared;
  }

  /** How nginx names it in `X-Upstream`. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get starts(): number {
    return this.#starts;
  }

  /** What this run of it wrote on stderr so far. */
  stderr(): string {
    return this.#process?.stderr() ?? '';
  }

  async start(): Promise<void> {
    if (this.#process) throw new Error(`${this.name} is already running.`);
    this.#starts++;
    this.#process = await startGatewayProcess({
      config: this.#shared.config,
      port: this.port,
      env: { ...this.#shared.env, GATEWAY_REPLICA: this.name },
      logFile: join(this.#shared.logDir, `${this.name}.log`),
    });
  }

  /** SIGKILL: a crash. The calls it holds die with it. */
  async kill(): Promise<void> {
    await this.#process?.kill();
    this.#process = undefined;
  }

  /** SIGTERM: a graceful stop. */
  async stop(): Promise<void> {
    await this.#process?.stop();
    this.#process = undefined;
  }
}
