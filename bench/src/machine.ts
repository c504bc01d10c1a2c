import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

/** The machine a run measured, so numbers are never quoted without it. */
export interface Machine {
  readonly cpuModel: string;
  readonly cores: number;
  readonly node: string;
  readonly platform: string;
  readonly memoryGb: number;
  /** 1-minute load average when the run started: other work on the machine skews every number. */
  readonly loadAverageAtStart: number;
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((text) => text.startsWith('model name'));
    if (line) return line.split(':').slice(1).join(':').trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return cpus()[0]?.model ?? 'unknown';
}

export function describeMachine(): Machine {
  return {
    cpuModel: cpuModel(),
    cores: availableParallelism(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    loadAverageAtStart: loadavg()[0]!,
  };
}
