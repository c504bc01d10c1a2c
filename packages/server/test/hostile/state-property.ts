import fc from 'fast-check';
import { expect } from 'vitest';
import { call } from './rpc.js';
import { issueStates, presentingPlaces, type TargetName, type Targets } from './state-corpus.js';
import { type MutationKind, mutate, mutationArb } from './state-mutations.js';
import { witness } from './targets.js';

/** How many mutated states of each kind were presented (and refused). */
export type MutationCounts = Map<MutationKind, number>;

/** Sends a request to a server: in process (its endpoint's fetch) or over HTTP. */
export type Fetcher = (request: Request) => Promise<Response>;

/**
 * Presents `runs` mutations of valid sealed states (issued by real servers, then spoiled or moved
 * elsewhere) and checks each is refused with -32602 before any handler runs: the handler-run and
 * side-effect counters do not move. `send` reaches a target (default: in process).
 */
export async function checkStateMutations(
  servers: Targets,
  runs: number,
  options: { send?: (target: TargetName) => Fetcher; seed?: number } = {},
): Promise<MutationCounts> {
  const sendTo = options.send ?? ((target: TargetName) => servers[target].endpoint.fetch);
  const send = (place: { target: TargetName }) => sendTo(place.target);
  const corpus = await issueStates(sendTo);
  const places = presentingPlaces();
  // The control: every state opens where it was issued and on A's replica (it is valid, not refused).
  for (const state of corpus) {
    const reply = await call(send(state.place), {
      tool: state.place.tool,
      args: state.place.args,
      user: state.place.user,
      inputResponses: state.answers,
      requestState: state.token,
    });
    expect(reply.error, JSON.stringify(state.place)).toBeUndefined();
  }

  const counts: MutationCounts = new Map();
  await fc.assert(
    fc.asyncProperty(fc.nat(), mutationArb, async (pick, mutation) => {
      const state = corpus[pick % corpus.length]!;
      const presented = mutate(state, mutation, corpus, places);
      fc.pre(presented !== undefined);
      const { place, requestState } = presented!;
      const before = { runs: witness.runs, effects: witness.effects };
      const reply = await call(send(place), {
        tool: place.tool,
        args: place.args,
        user: place.user,
        inputResponses: state.answers,
        requestState,
      });
      expect(reply.error?.code, `${mutation.kind}: ${JSON.stringify(reply)}`).toBe(-32602);
      expect(witness.runs, `${mutation.kind} ran a handler`).toBe(before.runs);
      expect(witness.effects).toBe(before.effects);
      counts.set(mutation.kind, (counts.get(mutation.kind) ?? 0) + 1);
    }),
    { numRuns: runs, ...(options.seed !== undefined && { seed: options.seed }) },
  );
  return counts;
}

/** `12,000 (bit flip 900, ...)` */
export function describeCounts(counts: MutationCounts): string {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${kind} ${n}`);
  return `${total} (${parts.join(', ')})`;
}
