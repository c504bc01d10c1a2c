/**
 * How long the fuzz runs go. `FUZZ_SCALE` multiplies every run count (default 1), `FUZZ_SEED` fixes
 * fast-check's seed so a failure can be replayed (the failing seed is printed with the counterexample).
 */
export function fuzzRuns(base: number): number {
  const scale = Number(process.env.FUZZ_SCALE ?? 1);
  return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

export function fuzzSeed(): number | undefined {
  const seed = process.env.FUZZ_SEED;
  return seed === undefined ? undefined : Number(seed);
}

/** `name: 12000 cases (a 10, b 2)` for the run's log. */
export function report(name: string, counts: ReadonlyMap<string, number>): string {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${kind} ${n}`);
  return `${name}: ${total} cases (${parts.join(', ')})`;
}

/** Fuzz runs take minutes, not seconds. */
export const FUZZ_TIMEOUT = 60 * 60_000;
