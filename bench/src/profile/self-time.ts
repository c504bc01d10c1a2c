import type { CpuProfile } from './cpu-profile.js';
import type { SourceLocator } from './source-location.js';

/** One function's time: its own (self), charged to it (attributed), or everything under it (total). */
export interface TimeRow {
  readonly functionName: string;
  /** `path:line` of the function's start, through source maps where they exist. */
  readonly location: string;
  readonly ms: number;
  /** Share of the busy (non-idle) time. */
  readonly percent: number;
}

export interface ProfileSummary {
  /** Sampled time the process was not idle, in milliseconds. */
  readonly busyMs: number;
  /** The functions with the most self time. */
  readonly topSelf: readonly TimeRow[];
  /** The first-party functions (see `summarizeProfile`) with the most total time. */
  readonly topTotal: readonly TimeRow[];
  /**
   * The first-party functions with the most attributed time: every sample is charged to the
   * nearest first-party function on its stack, so library and runtime work lands on the line of
   * the server's own code that asked for it (and nothing is counted twice).
   */
  readonly topAttributed: readonly TimeRow[];
  /** Busy time by where the code lives: a package name, `node:internal`, `gc`, `native`. */
  readonly byOrigin: readonly { readonly origin: string; readonly ms: number; readonly percent: number }[];
  /**
   * Busy time by on whose behalf it was spent (see `parties` of `summarizeProfile`): each sample is
   * charged to the nearest party on its stack, so zod, native and runtime work counts for the code
   * that asked for it. `gc` is the collector; {@link NO_PARTY} is work no party's code is on the
   * stack of (the HTTP server reading a socket, timers).
   */
  readonly byParty: readonly { readonly party: string; readonly ms: number; readonly percent: number }[];
}

/** The `byParty` row of samples no party's code is on the stack of. */
export const NO_PARTY = 'runtime';

const IDLE = new Set(['(idle)', '(root)']);

/** Which package or runtime part a profile url belongs to. */
export function originOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'gc';
  if (functionName === '(program)') return 'v8 (program)';
  if (!url) return 'native';
  if (url.startsWith('node:')) return 'node:internal';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + '/node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : (first ?? url);
  }
  const workspace = /\/packages\/([^/]+)\//.exec(url);
  if (workspace) return `@parley/${workspace[1]}`;
  if (url.includes('/bench/')) return 'bench';
  return url;
}

type Frame = CpuProfile['nodes'][number]['callFrame'];

/** Adds up time per key, then lists the `limit` largest as rows. */
class Tally {
  readonly #rows = new Map<string, { functionName: string; location: string; us: number }>();

  add(key: string, make: () => { functionName: string; location: string }, us: number): void {
    const row = this.#rows.get(key) ?? { ...make(), us: 0 };
    row.us += us;
    this.#rows.set(key, row);
  }

  top(limit: number, share: (us: number) => number): TimeRow[] {
    return [...this.#rows.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, limit)
      .map((row) => ({
        functionName: row.functionName,
        location: row.location,
        ms: row.us / 1000,
        percent: share(row.us),
      }));
  }
}

/**
 * Sums each function's time from the samples (time deltas, not hit counts, so uneven sampling
 * is weighed right). Self time is per function; total and attributed time are listed only for
 * functions whose origin is in `firstParty` (e.g. `@parley/server`); total time counts each
 * function once per sample even when it recurses.
 */
export function summarizeProfile(
  profile: CpuProfile,
  locator: SourceLocator,
  options: {
    readonly limit: number;
    readonly firstParty: readonly string[];
    /** Names for groups of origins (e.g. Parley: its packages; the SDK: its packages), for `byParty`. */
    readonly parties?: Readonly<Record<string, readonly string[]>>;
  },
): ProfileSummary {
  const partyOfOrigin = new Map<string, string>();
  for (const [party, origins] of Object.entries(options.parties ?? {}))
    for (const origin of origins) partyOfOrigin.set(origin, party);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const timeAt = new Map<number, number>();
  // A sample's time is the gap to the next sample: delta i+1 belongs to sample i.
  for (let i = 0; i < samples.length; i++) {
    timeAt.set(samples[i]!, (timeAt.get(samples[i]!) ?? 0) + Math.max(0, deltas[i + 1] ?? 0));
  }

  const keyOf = (frame: Frame) => `${frame.functionName}\0${frame.url}\0${frame.lineNumber}`;
  const describe = (frame: Frame) => () => ({
    functionName: frame.functionName || '(anonymous)',
    location: locator.locate(frame.url, frame.lineNumber, frame.columnNumber),
  });
  const self = new Tally();
  const total = new Tally();
  const attributed = new Tally();
  const origins = new Map<string, number>();
  const parties = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of timeAt) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || IDLE.has(frame.functionName)) continue;
    busyUs += us;
    const origin = originOf(frame.url, frame.functionName);
    origins.set(origin, (origins.get(origin) ?? 0) + us);
    self.add(keyOf(frame), describe(frame), us);
    const seen = new Set<string>();
    let party = origin === 'gc' ? 'gc' : undefined;
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const caller = byId.get(at)!.callFrame;
      const key = keyOf(caller);
      const callerOrigin = originOf(caller.url, caller.functionName);
      party ??= partyOfOrigin.get(callerOrigin);
      if (seen.has(key) || !options.firstParty.includes(callerOrigin)) continue;
      if (seen.size === 0) attributed.add(key, describe(caller), us);
      seen.add(key);
      total.add(key, describe(caller), us);
    }
    if (partyOfOrigin.size > 0) {
      party ??= NO_PARTY;
      parties.set(party, (parties.get(party) ?? 0) + us);
    }
  }
  const share = (us: number) => (busyUs > 0 ? (100 * us) / busyUs : 0);
  const largestFirst = (tally: Map<string, number>) =>
    [...tally.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([key, us]) => ({ key, ms: us / 1000, percent: share(us) }));
  return {
    busyMs: busyUs / 1000,
    topSelf: self.top(options.limit, share),
    topTotal: total.top(options.limit, share),
    topAttributed: attributed.top(options.limit, share),
    byOrigin: largestFirst(origins).map(({ key, ms, percent }) => ({ origin: key, ms, percent })),
    byParty: largestFirst(parties).map(({ key, ms, percent }) => ({ party: key, ms, percent })),
  };
}
