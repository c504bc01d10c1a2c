import type { CpuProfile } from './cpu-profile.js';
import { originOf } from './self-time.js';

/**
 * Where a round's server CPU goes, in buckets that mean the same in any server's profile, so two
 * servers' rounds can be laid side by side (Parley against the SDK floor): each sample is charged to
 * the nearest frame on its stack that names a bucket (a Parley folder, the SDK, the bench's own
 * tool), else to what the runtime was doing at the leaf (writing a response, reading a request, the
 * microtask queue, the collector). Nothing is counted twice, and nothing is left unnamed: the
 * "runtime" buckets are the work no first-party function is on the stack of.
 */
export interface RoundBudget {
  /** Busy microseconds per round, in all. */
  readonly perRoundUs: number;
  /** Microseconds per round by bucket, largest first. */
  readonly buckets: readonly { readonly bucket: string; readonly us: number }[];
}

/** The runtime's own work, by the leaf function it was in when no first-party code was on the stack. */
const RUNTIME_LEAVES: readonly [RegExp, string][] = [
  [
    /^(writev|writeUtf8String|writeBuffer|writeLatin1String|_writeGeneric|_writev|_write)$/,
    'runtime: socket writes',
  ],
  [/^(runMicrotasks|processTicksAndRejections)$/, 'runtime: microtask and tick queues'],
  [
    /^(parserOnHeadersComplete|parserOnBody|parserOnMessageComplete|execute|onStreamRead)$/,
    'runtime: HTTP parser and socket reads',
  ],
  [/^\(program\)$/, 'runtime: V8 (program)'],
];

/** The bucket of a first-party frame: a Parley source folder, the SDK, or the bench's own tool. */
function firstPartyBucket(
  url: string,
  functionName: string,
  location: (url: string) => string,
): string | undefined {
  const origin = originOf(url, functionName);
  if (origin === '@parley/server' || origin === '@parley/core') {
    const path = location(url);
    const folder = /packages\/(server|core)\/(?:src|dist)\/([^/]+)\//.exec(path);
    return folder ? `Parley: ${folder[1]}/${folder[2]}/` : `Parley: ${path.replace(/:\d+$/, '')}`;
  }
  if (origin.startsWith('@modelcontextprotocol/')) return 'the SDK (with the zod it calls)';
  if (origin === 'bench') return "the bench's tool";
  return undefined;
}

/**
 * Charges a profile's busy samples to buckets (see {@link RoundBudget}) and divides by `rounds`.
 * `location` turns a script url into a repository path (source-mapped), for Parley's folders.
 */
export function roundBudget(
  profile: CpuProfile,
  rounds: number,
  location: (url: string) => string,
): RoundBudget {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const buckets = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < samples.length; i++) {
    const us = Math.max(0, deltas[i + 1] ?? 0);
    const leaf = byId.get(samples[i]!)?.callFrame;
    if (!leaf || leaf.functionName === '(idle)' || leaf.functionName === '(root)') continue;
    busy += us;
    const bucket = bucketOf(samples[i]!, byId, parentOf, location);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
  }
  return {
    perRoundUs: busy / rounds,
    buckets: [...buckets.entries()]
      .map(([bucket, us]) => ({ bucket, us: us / rounds }))
      .sort((a, b) => b.us - a.us),
  };
}

function bucketOf(
  id: number,
  byId: ReadonlyMap<number, CpuProfile['nodes'][number]>,
  parentOf: ReadonlyMap<number, number>,
  location: (url: string) => string,
): string {
  const leaf = byId.get(id)!.callFrame;
  if (leaf.functionName === '(garbage collector)') return 'runtime: garbage collector';
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at)!.callFrame;
    const bucket = firstPartyBucket(frame.url, frame.functionName, location);
    if (bucket) return bucket;
  }
  for (const [pattern, bucket] of RUNTIME_LEAVES) if (pattern.test(leaf.functionName)) return bucket;
  const origin = originOf(leaf.url, leaf.functionName);
  return origin === 'node:internal'
    ? `runtime: ${leaf.url.replace(/^node:internal\//, '')}`
    : `runtime: ${origin}`;
}
