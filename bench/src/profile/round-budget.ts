import type { CpuProfile } from './cpu-profile.js';
import { originOf } from './self-time.js';

/**
 * Where a round's server CPU goes, in buckets that mean the same in any server's profile, so two
 * servers' rounds can be laid side by side (Parley against the SDK floor): each sample is charged to
 * the nearest frame on its stack that names a bucket (a Parley folder, the SDK, the bench's own
 * tool) or is the runtime's (a Node module: node:http writing a response, node:crypto), so the
 * same work lands in the same bucket whichever server asked for it. Nothing is counted twice, and
 * nothing is left unnamed.
 */
export interface RoundBudget {
  /** Busy microseconds per round, in all. */
  readonly perRoundUs: number;
  /** Microseconds per round by bucket, largest first. */
  readonly buckets: readonly { readonly bucket: string; readonly us: number }[];
}

/** The runtime's own work, by the Node module the nearest runtime frame is in. */
const RUNTIME_FILES: readonly [RegExp, string][] = [
  [/^node:_http_|^node:internal\/http/, 'runtime: node:http (parse the request, write the response)'],
  [
    /^node:net$|^node:stream$|^node:internal\/(streams\/|stream_base_commons|net)/,
    'runtime: sockets and streams',
  ],
  [/^node:internal\/crypto\//, 'runtime: node:crypto'],
  [/^node:internal\/process\/task_queues/, 'runtime: microtask and tick queues'],
  [/^node:internal\/(timers|async_hooks)/, 'runtime: timers'],
];

/** Parley's packages whose folders are buckets of their own (a Parley server's two, the gateway's four). */
const PARLEY_PACKAGES = new Set(['@parley/server', '@parley/core', '@parley/client', '@parley/gateway']);

/** The bucket of a first-party frame: a Parley source folder, the SDK, or the bench's own tool. */
function firstPartyBucket(
  url: string,
  functionName: string,
  location: (url: string) => string,
): string | undefined {
  const origin = originOf(url, functionName);
  if (PARLEY_PACKAGES.has(origin)) {
    const path = location(url);
    const folder = /packages\/(server|core|client|gateway)\/(?:src|dist)\/([^/]+)\//.exec(path);
    return folder ? `Parley: ${folder[1]}/${folder[2]}/` : `Parley: ${path.replace(/:\d+$/, '')}`;
  }
  // The gateway runs both SDK packages: the server toward its host, the client toward its upstream.
  if (origin === '@modelcontextprotocol/client') return "the SDK's client (with the zod it calls)";
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
  if (leaf.functionName === '(program)') return 'runtime: V8 (program)';
  if (leaf.functionName === 'runMicrotasks') return 'runtime: microtask and tick queues';
  // The nearest frame that is the runtime's (a Node module) or first-party code's names the work:
  // JSON.parse called by a server is the server's, a socket write called by node:http is node:http's.
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at)!.callFrame;
    if (frame.url.startsWith('node:')) {
      for (const [pattern, bucket] of RUNTIME_FILES) if (pattern.test(frame.url)) return bucket;
      return `runtime: ${frame.url}`;
    }
    const bucket = firstPartyBucket(frame.url, frame.functionName, location);
    if (bucket) return bucket;
  }
  return `runtime: ${originOf(leaf.url, leaf.functionName)} (${leaf.functionName || 'anonymous'})`;
}
