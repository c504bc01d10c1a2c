import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PortTaken } from './free-port.js';
import { PROCESS_START_TIMEOUT_MS } from './test-waits.js';

/** The built `parley` command. */
const PARLEY = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));

/** What {@link startGatewayProcess} starts. */
export interface GatewayProcessOptions {
  /** The gateway configuration (written to a file for `--config`). */
  readonly config: unknown;
  /** Default 0: any free port (the URL it printed says which). */
  readonly port?: number;
  /** Added to this process's environment (`${NAME}` references in the config read it). */
  readonly env?: Readonly<Record<string, string>>;
  /** A file that gets everything the process writes on stderr. */
  readonly logFile?: string;
}

/** A `parley gateway` process. */
export interface GatewayProcess {
  /** Its MCP endpoint, as it printed it (`Gateway: <url>`). */
  readonly url: string;
  readonly port: number;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** SIGKILL: a crash; nothing is cleaned up. */
  kill(): Promise<void>;
  /** SIGTERM: a graceful stop. */
  stop(): Promise<void>;
}

/**
 * Starts the built `parley gateway --config <file> --port <port>` as a real process and waits until
 * it printed `Gateway: <url>`. Throws {@link PortTaken} when the port was taken (retry with
 * {@link onFreePort}), and an error with its output when it exited or did not start in time.
 */
export async function startGatewayProcess(options: GatewayProcessOptions): Promise<GatewayProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-gateway-'));
  const configFile = join(dir, 'gateway.json');
  writeFileSync(configFile, JSON.stringify(options.config));
  const child: ChildProcess = spawn(
    process.execPath,
    [PARLEY, 'gateway', '--config', configFile, '--port', String(options.port ?? 0)],
    { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (options.logFile) appendFileSync(options.logFile, chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  void exited.then(() => rmSync(dir, { recursive: true, force: true }));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`parley gateway did not start within ${PROCESS_START_TIMEOUT_MS / 1000} s: ${stderr}`),
      );
    }, PROCESS_START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const printed = /^Gateway: (\S+)$/m.exec(stdout);
      if (printed) {
        clearTimeout(timer);
        resolve(printed[1]!);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(
        /EADDRINUSE/.test(stderr) && options.port
          ? new PortTaken(options.port)
          : new Error(`parley gateway exited with ${child.exitCode ?? child.signalCode}: ${stderr}`),
      );
    });
  });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return {
    url,
    port: Number(new URL(url).port),
    stderr: () => stderr,
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}
