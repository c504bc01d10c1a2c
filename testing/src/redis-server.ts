import { type ChildProcess, spawn } from 'node:child_process';
import { onFreePort, PortTaken } from './free-port.js';

/** A throwaway `redis-server` on loopback (no persistence). */
export interface RedisServer {
  readonly url: string;
  /**
   * Stops it (SIGTERM), waits `downMs`, and starts it again on the same port, empty: what clients
   * see when Redis restarts.
   */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a real, throwaway `redis-server` on loopback (no persistence). */
export async function startRedis(): Promise<RedisServer> {
  const first = await onFreePort(async (port) => ({ port, child: await spawnRedis(port) }));
  const { port } = first;
  let child = first.child;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    async restart(downMs = 1000) {
      await stop();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      child = await spawnRedis(port);
    },
  };
}

async function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('error', (error) =>
      reject(
        new Error(`redis-server could not start (is it installed? .ci/run installs it): ${error.message}`),
      ),
    );
    // 'close', not 'exit': what it said last may still be on its way when it has exited.
    child.once('close', (code) =>
      reject(
        /Address already in use/.test(output)
          ? new PortTaken(port)
          : new Error(`redis-server exited with ${code}: ${output}`),
      ),
    );
  });
  return child;
}
