/** What the young-generation collections (scavenges) of a stretch of `--trace-gc-nvp` output did. */
export interface ScavengeSummary {
  readonly scavenges: number;
  /** Mean bytes moved into the old generation per scavenge: what lived through two of them. */
  readonly promotedBytes: number;
  /** Mean bytes that lived through each scavenge (`new_space_survived`). */
  readonly survivedBytes: number;
  /** Mean pause per scavenge, milliseconds. */
  readonly pauseMs: number;
}

const SCAVENGE = /\bgc=s\b/;

function field(line: string, name: string): number {
  const match = new RegExp(`\\b${name}=([0-9.]+)`).exec(line);
  return match ? Number(match[1]) : Number.NaN;
}

/**
 * Reads the scavenge lines of V8's `--trace-gc-nvp` output (one `key=value` line per collection;
 * `gc=s` marks a scavenge) and averages them. Lines of other collections and other output are
 * skipped; `undefined` when there is no scavenge line.
 */
export function scavengesOf(trace: string): ScavengeSummary | undefined {
  const lines = trace.split('\n').filter((line) => SCAVENGE.test(line));
  if (lines.length === 0) return undefined;
  const mean = (name: string) => lines.reduce((sum, line) => sum + field(line, name), 0) / lines.length;
  return {
    scavenges: lines.length,
    promotedBytes: mean('promoted'),
    survivedBytes: mean('new_space_survived'),
    pauseMs: mean('pause'),
  };
}
