import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onFreePort, PortTaken } from './free-port.js';
import { type BalancerConfig, balancerConfig } from './nginx-config.js';
import { PROCESS_START_TIMEOUT_MS } from './test-waits.js';

/** Options of {@link startNginx}. */
export type NginxOptions = Omit<BalancerConfig, 'port' | 'dir' | 'asRoot'> & {
  /** Default: a free port (another one if that was taken before nginx bound it). */
  readonly port?: number;
  /** Default `nginx` on the PATH, else `/usr/sbin/nginx`. */
  readonly binary?: string;
};

/** A running nginx load balancer. */
export interface Nginx {
  /** e.g. `http://127.0.0.1:41234` */
  readonly url: string;
  readonly port: number;
  /** Its folder: config, pid, `error.log`, `access.log`. Removed by `stop()`. */
  readonly dir: string;
  /** What nginx logged so far (warnings and errors: e.g. replicas it could not reach). */
  errorLog(): string;
  stop(): Promise<void>;
}

const NGINX_CANDIDATES = ['nginx', '/usr/sbin/nginx'];

/**
 * Starts a real nginx in the foreground as a round-robin load balancer over loopback replicas
 * (see {@link balancerConfig}), with its own config, logs and temp files in a fresh folder.
 *
 * @example
 * const lb = await startNginx({ upstreamPorts: [4101, 4102, 4103] });
 * const response = await fetch(`${lb.url}/mcp`, { method: 'POST', body });
 * response.headers.get('x-upstream'); // '127.0.0.1:4102'
 * await lb.stop();
 */
export async function startNginx(options: NginxOptions): Promise<Nginx> {
  if (options.port !== undefined) return startNginxOn(options.port, options);
  return onFreePort((port) => startNginxOn(port, options));
}

async function startNginxOn(port: number, options: NginxOptions): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-nginx-'));
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const conf = join(dir, 'nginx.conf');
  const pidFile = join(dir, 'nginx.pid');
  writeFileSync(conf, balancerConfig({ ...options, port, dir, asRoot }));
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };

  const child = await spawnNginx(options.binary, [
    '-p',
    dir,
    '-c',
    conf,
    '-e',
    join(dir, 'error.log'),
    '-g',
    'daemon off;',
  ]);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let closed = false;
  // 'close', not 'exit': what it said last may still be on its way when it has exited.
  const exited = new Promise<void>((resolve) =>
    child.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  const stop = async () => {
    if (!closed) {
      child.kill('SIGTERM'); // fast shutdown: open keep-alive connections do not hold it up
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // nginx writes its pid file once it listens (a port that answers could be someone else's).
  const deadline = Date.now() + PROCESS_START_TIMEOUT_MS;
  while (!existsSync(pidFile)) {
    const failed = closed;
    if (failed || Date.now() > deadline) {
      const said = `${stderr}${errorLog()}`;
      await stop();
      if (failed && /Address already in use/.test(said)) throw new PortTaken(port);
      throw new Error(
        failed
          ? `nginx exited with ${child.exitCode}: ${said}`
          : `nginx did not listen within ${PROCESS_START_TIMEOUT_MS / 1000} s: ${said}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { url: `http://127.0.0.1:${port}`, port, dir, errorLog, stop };
}

async function spawnNginx(binary: string | undefined, args: string[]): Promise<ChildProcess> {
  const candidates = binary ? [binary] : NGINX_CANDIDATES;
  for (const candidate of candidates) {
    const child = spawn(candidate, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const started = await new Promise<boolean>((resolve) => {
      child.once('spawn', () => resolve(true));
      child.once('error', () => resolve(false));
    });
    if (started) return child;
  }
  throw new Error(
    `nginx is not installed (tried ${candidates.join(', ')}); install nginx-light (.ci/run does: apt-get install nginx-light).`,
  );
}
