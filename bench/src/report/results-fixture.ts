// Results as the report's tests build them: a run's measurements with made-up numbers.
import { parseConfig } from '../config.js';
import type { LoadSummary } from '../workloads/flows.js';
import type { MemoryReading } from '../workloads/memory.js';
import { checkGoals } from './goals.js';
import type { BenchResults, GoalCheck } from './results.js';

/** A load's medians: p50 a quarter of p99, CPU per flow two rounds' worth. */
export const loadSummary = (
  flowsPerSecond: number,
  roundP99Ms: number,
  cpuPerRoundUs: number,
): LoadSummary => ({
  flowsPerSecond,
  roundP50Ms: roundP99Ms / 4,
  roundP99Ms,
  cpuPerFlowUs: cpuPerRoundUs * 2,
  cpuPerRoundUs,
  runs: [],
});

/** A memory reading: RSS five times the heap. */
export const memoryReading = (heapMb: number, handlersRunning = 0): MemoryReading => ({
  heapMb,
  rssMb: heapMb * 5,
  handlersRunning,
});

/** A run on a test machine with the default configuration, measuring what `overrides` holds. */
export function measuredResults(
  overrides: Partial<Omit<BenchResults, 'goals'>> = {},
): Omit<BenchResults, 'goals'> {
  const parsed = parseConfig([]);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return {
    format: 1,
    date: '2026-11-30T00:00:00.000Z',
    config: parsed.config,
    machine: {
      cpuModel: 'Test CPU',
      cores: 2,
      node: 'v20.20.2',
      platform: 'linux x64',
      memoryGb: 24,
      loadAverageAtStart: 0.2,
      loadAverageAtEnd: 1.9,
    },
    serverLogs: [],
    ...overrides,
  };
}

/** The goal of `results` whose name starts with `start`. */
export function goalOf(results: Omit<BenchResults, 'goals'>, start: string): GoalCheck {
  const found = checkGoals(results).find((check) => check.goal.startsWith(start));
  if (!found) throw new Error(`no goal starting "${start}"`);
  return found;
}
