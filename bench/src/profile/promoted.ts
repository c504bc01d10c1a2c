/**
 * What lives through young-generation collections while a Parley bench server serves load (a): the
 * server runs under V8's `--trace-gc-nvp`, and the scavenges of the measured stretch are averaged.
 * Used by `bench:gc` (this build against another) and by the memory guard CI runs.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runLoad } from '../load/run-load.js';
import { SideChannelClient } from '../servers/side-channel-client.js';
import { type ScavengeSummary, scavengesOf } from './gc-trace.js';

/** The load: (a)'s flow, its questions per flow and the flows in flight. */
export interface PromotedLoad {
  readonly questions: number;
  readonly concurrency: number;
  readonly warmMs: number;
  readonly measuredMs: number;
}

/** The scavenges of a measured stretch, with the rounds served and the flows per second. */
export interface PromotedReading extends ScavengeSummary {
  readonly rounds: number;
  readonly flowsPerSecond: number;
}

/** Starts the Parley bench server at `main` under the trace, warms it, and reads the measured stretch. */
export async function measurePromoted(
  main: string,
  label: string,
  load: PromotedLoad,
): Promise<PromotedReading> {
  const trace = join(tmpdir(), `parley-gc-${process.pid}-${label.replace(/\W+/g, '-')}.txt`);
  const out = openSync(trace, 'w');
  const child = spawn(process.execPath, ['--trace-gc-nvp', main, 'parley'], {
    stdio: ['ignore', out, 'ignore'],
  });
  const exited = once(child, 'exit');
  try {
    let url: string | undefined;
    for (let tries = 0; url === undefined; tries++) {
      if (tries > 200 || child.exitCode !== null)
        throw new Error(`The ${label} server did not print its URL.`);
      await sleep(50);
      url = /\{"url":"([^"]+)"\}/.exec(readFileSync(trace, 'utf8'))?.[1];
    }
    const side = new SideChannelClient(url, label);
    const server = { url, stats: (options?: { gc?: boolean }) => side.stats(options) };
    const spec = { questions: load.questions, concurrency: load.concurrency };
    await runLoad(server, { ...spec, durationMs: load.warmMs });
    const from = readFileSync(trace, 'utf8').length;
    const run = await runLoad(server, { ...spec, durationMs: load.measuredMs });
    const scavenges = scavengesOf(readFileSync(trace, 'utf8').slice(from));
    if (!scavenges) throw new Error(`The ${label} server collected no garbage while measured: run longer.`);
    return { ...scavenges, rounds: run.rounds, flowsPerSecond: run.flowsPerSecond };
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(trace, { force: true });
  }
}
