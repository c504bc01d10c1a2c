import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The 2025-only upstream (TypeScript SDK v1). */
const TRIPS = fileURLToPath(new URL('../../upstream/trips-v1.mjs', import.meta.url));

/** The running upstream: its URL, and how to stop it. */
export interface TripsUpstream {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts the TypeScript SDK v1 trips server on a free loopback port, its stderr into `logFile`. */
export async function startTripsUpstream(logFile: string): Promise<TripsUpstream> {
  const child: ChildProcess = spawn(process.execPath, [TRIPS, '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.pipe(createWriteStream(logFile));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    void exited.then(() =>
      reject(new Error(`the trips upstream exited with ${child.exitCode} (see ${logFile})`)),
    );
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
