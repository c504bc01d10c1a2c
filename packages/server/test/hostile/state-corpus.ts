import { call } from './rpc.js';
import type { targets } from './targets.js';

export type Targets = ReturnType<typeof targets>;
export type TargetName = keyof Targets;

/** Where a state is issued or presented: a server, a tool with its arguments, a user (or nobody). */
export interface Place {
  readonly target: TargetName;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly user: string | undefined;
}

/** A valid sealed state, where it was issued, and the answer its round expects. */
export interface IssuedState {
  readonly place: Place;
  readonly token: string;
  /** The key of the question pending in this state, and an answer that fits it. */
  readonly answers: Record<string, { action: 'accept'; content: { value: unknown } }>;
}

const USERS = ['alice', 'bob', undefined] as const;
const TOOLS = [
  { tool: 'two_rounds', args: {} },
  { tool: 'other_tool', args: {} },
  { tool: 'with_args', args: { order: 'A-1' } },
] as const;
const FIRST = { first: { action: 'accept', content: { value: 'Ada' } } } as const;
const SECOND = { second: { action: 'accept', content: { value: 2 } } } as const;

/** Every place a state can be issued at (servers A, B and C: A's name on other keys). */
export function issuingPlaces(): Place[] {
  return (['a', 'b', 'c'] as const).flatMap((target) =>
    TOOLS.flatMap(({ tool, args }) => USERS.map((user) => ({ target, tool, args, user }))),
  );
}

/** Places states are presented at: the issuing places, A's replica, and `with_args` for another order. */
export function presentingPlaces(): Place[] {
  const more = (['a', 'aReplica'] as const).flatMap((target) =>
    USERS.map((user) => ({ target, tool: 'with_args', args: { order: 'B-2' }, user })),
  );
  const replica = issuingPlaces()
    .filter((place) => place.target === 'a')
    .map((place) => ({ ...place, target: 'aReplica' as const }));
  return [...issuingPlaces(), ...replica, ...more];
}

/** The server name and keys a target seals with: A and its replica are one server. */
const sealingIdentity: Record<TargetName, string> = {
  a: 'A',
  aReplica: 'A',
  b: 'B',
  c: 'C',
  relabel: 'A', // A's name and A's key k1 (besides kx): A's states open there
};

/** Whether a state issued at `issued` is meant to open at `presented` (the same call, any replica). */
export function sameBinding(issued: Place, presented: Place): boolean {
  return (
    sealingIdentity[issued.target] === sealingIdentity[presented.target] &&
    issued.tool === presented.tool &&
    JSON.stringify(issued.args) === JSON.stringify(presented.args) &&
    issued.user === presented.user
  );
}

/** Issues two states at every issuing place: after the first call, and after its first answer. */
export async function issueStates(
  send: (target: TargetName) => (request: Request) => Promise<Response>,
): Promise<IssuedState[]> {
  const states: IssuedState[] = [];
  for (const place of issuingPlaces()) {
    const fetcher = send(place.target);
    const spec = { tool: place.tool, args: place.args, user: place.user };
    const first = await call(fetcher, spec);
    const firstToken = first.result?.requestState;
    if (!firstToken) throw new Error(`No state from ${JSON.stringify(place)}: ${JSON.stringify(first)}`);
    states.push({ place, token: firstToken, answers: FIRST });
    const second = await call(fetcher, { ...spec, inputResponses: FIRST, requestState: firstToken });
    const secondToken = second.result?.requestState;
    if (!secondToken)
      throw new Error(`No second state from ${JSON.stringify(place)}: ${JSON.stringify(second)}`);
    states.push({ place, token: secondToken, answers: SECOND });
  }
  return states;
}
