import type { Random } from '../random.js';
import type { LineReply, RequestLine } from './client-requests.js';
import { TripFlow, type TripResult } from './trip-flow.js';

/** The kill of a part: which replica, and when it died and came back. */
export interface KillRecord {
  /** Its name, and its balancer address. */
  readonly victim: string;
  readonly address: string;
  /** Flows in progress whose call it held as the run saw it just before the kill. */
  readonly heldAtKill: number;
  readonly killedAt: number;
  /** When it was serving again (a call begun on it before then was held by the process that died). */
  restartedAt: number;
  /** Whether a request was inside it when it died (the sequenced part picks that moment). */
  readonly midRequest: boolean;
  /** What that request was (e.g. an answer to a call another replica holds). */
  readonly cut?: string;
}

/** Answers to held calls, against the replica holding each call. */
export interface RoundCounts {
  /** First rounds of calls (each parks the upstream call on the replica that served it). */
  begun: number;
  /** Later rounds (answers to a held call) that got a reply. */
  answered: number;
  /** Of those, served by another replica than the holder: passed on over Redis. */
  passedOn: number;
  /** Of those, served by the holder itself, by fault window. */
  onHolder: Map<string, number>;
}

export function emptyRoundCounts(): RoundCounts {
  return { begun: 0, answered: 0, passedOn: 0, onHolder: new Map() };
}

/** Counts one reply of a line into `counts`; `where` names the fault window open now. */
export function countRound(counts: RoundCounts, event: LineReply, where: string): void {
  const replica = event.reply.replica;
  if (event.unclear !== undefined || replica === undefined) return;
  if (event.kind === 'begin') counts.begun++;
  if (event.kind !== 'round') return;
  counts.answered++;
  if (replica !== event.holder) counts.passedOn++;
  else counts.onHolder.set(where, (counts.onHolder.get(where) ?? 0) + 1);
}

export interface LoadOptions {
  readonly line: RequestLine;
  /** The gateway's MCP endpoint, through the balancer. */
  readonly endpoint: string;
  /** Flows to run at least (more run until the kill is over). */
  readonly flows: number;
  readonly active: number;
  readonly firstId: number;
  readonly random: Random;
  /** Share of the flows finished before the kill. */
  readonly killAt: number;
  /**
   * Kills a replica and brings it back; `holding(address)` lists the flows in progress whose
   * calls that replica holds (read it at the moment of the kill).
   */
  readonly kill: (holding: (address: string) => number[]) => Promise<KillRecord>;
  /** A flow not ended this long after the last one started counts as lost. */
  readonly lostAfterMs: number;
}

/** The flows of one part, and its kill. */
export interface Load {
  readonly results: TripResult[];
  readonly kill: KillRecord;
  readonly durationMs: number;
  /** Whether every flow ended (none lost): the line may be stopped and waited for. */
  readonly ended: boolean;
}

/** Runs `flows` flows, `active` at once, through `line`, with one replica killed on the way. */
export async function runLoad(options: LoadOptions): Promise<Load> {
  const started = Date.now();
  const results: TripResult[] = [];
  const inProgress = new Set<TripFlow>();
  let created = 0;
  let killDone = false;
  let stopping = false;
  const worker = async () => {
    while (!stopping && (created < options.flows || !killDone)) {
      const flow = new TripFlow(options.firstId + created++, options.random);
      inProgress.add(flow);
      const result = await flow.run(options.endpoint, options.line.fetchFor(flow));
      if (!inProgress.delete(flow)) continue; // counted as lost already
      results.push(result);
    }
  };
  const workers = Promise.all(Array.from({ length: options.active }, worker));
  let kill: KillRecord;
  try {
    while (results.length < options.flows * options.killAt)
      await new Promise((resolve) => setTimeout(resolve, 25));
    kill = await options.kill((address) =>
      [...inProgress].filter((flow) => flow.holder === address).map((flow) => flow.id),
    );
  } finally {
    killDone = true;
  }
  while (created < options.flows) await new Promise((resolve) => setTimeout(resolve, 25));
  const ended = await Promise.race([
    workers.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), options.lostAfterMs)),
  ]);
  stopping = true;
  for (const flow of inProgress)
    results.push({
      id: flow.id,
      marker: flow.marker,
      status: 'lost',
      reason: `still in progress ${options.lostAfterMs / 1000} s after the last flow started`,
      at: { step: flow.step, replica: flow.holder },
      resent: flow.resent,
      endedAt: Date.now(),
      ...(flow.holder !== undefined && { holder: flow.holder }),
      ...(flow.heldAt !== undefined && { heldAt: flow.heldAt }),
    });
  inProgress.clear();
  return { results: results.sort((a, b) => a.id - b.id), kill, durationMs: Date.now() - started, ended };
}
