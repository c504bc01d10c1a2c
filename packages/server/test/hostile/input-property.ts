import fc from 'fast-check';
import { expect } from 'vitest';
import { call } from './rpc.js';
import { type Target, witness } from './targets.js';

/** What random inputResponses led to. */
export type InputCounts = Map<string, number>;

const json = fc.jsonValue({ maxDepth: 4 });
const hostileKey = fc.oneof(
  fc.constantFrom('return', 'first', 'second', '__proto__', 'constructor', 'toString', ''),
  fc.string({ maxLength: 12 }),
);
const action = fc.oneof(fc.constantFrom('accept', 'decline', 'cancel'), json);
const date = fc
  .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
/** A form answer that is sometimes right, often nearly right, sometimes nonsense. */
const formContent = fc.record(
  {
    reason: fc.oneof(fc.constantFrom('Broken', 'Wrong item', 'broken', 'Lost'), json),
    email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 20 }), json),
    boxes: fc.oneof(
      fc.integer({ min: -2, max: 6 }),
      fc.double({ noNaN: false }),
      fc.string({ maxLength: 3 }),
      json,
    ),
    weight: fc.oneof(fc.double({ min: -10, max: 80 }), fc.integer(), fc.string({ maxLength: 4 }), json),
    pickup: fc.oneof(date, fc.string({ maxLength: 12 }), json),
    tags: fc.oneof(
      fc.subarray(['fragile', 'heavy', 'gift', 'other']),
      fc.array(json, { maxLength: 4 }),
      json,
    ),
    wrap: fc.oneof(fc.boolean(), json),
    extra: json,
  },
  { requiredKeys: [] },
);
const scalarContent = fc.record(
  { value: fc.oneof(fc.string({ maxLength: 50 }), fc.integer({ min: -3, max: 6 }), fc.double(), json) },
  { requiredKeys: [] },
);
const result = fc.record(
  { action, content: fc.oneof(formContent, scalarContent, json) },
  { requiredKeys: [] },
);
/** Any shape: not an object at all, an object of anything, an object of result-like objects. */
export const inputResponsesArb = fc.oneof(
  json,
  fc.dictionary(hostileKey, json, { maxKeys: 4 }),
  fc.dictionary(hostileKey, result, { maxKeys: 4 }),
  fc.dictionary(fc.constantFrom('return', 'first', 'second'), result, { minKeys: 1, maxKeys: 3 }),
);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Sends `runs` random `inputResponses` (any JSON shape, hostile keys, answers that break their
 * question's rules) with and without a valid state, and checks that the server always answers
 * with a JSON-RPC response (never crashes, keeps serving), that a shape that is not an object of
 * result objects is refused with -32602 before the handler runs, and that no accepted answer ever
 * reaches a handler without passing its question's checks (the handlers record any that would).
 */
export async function checkRandomInputResponses(
  target: Target,
  runs: number,
  seed?: number,
): Promise<InputCounts> {
  const fetcher = target.endpoint.fetch;
  const user = 'alice';
  const statesFor = async (tool: string) => {
    const first = await call(fetcher, { tool, user });
    const states = [first.result?.requestState];
    if (tool === 'two_rounds') {
      const second = await call(fetcher, {
        tool,
        user,
        inputResponses: { first: { action: 'accept', content: { value: 'Ada' } } },
        requestState: states[0],
      });
      states.push(second.result?.requestState);
    }
    expect(states.every((state) => typeof state === 'string')).toBe(true);
    return states as string[];
  };
  const states = { form: await statesFor('form'), two_rounds: await statesFor('two_rounds') };
  const counts: InputCounts = new Map();
  const count = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
  let sent = 0;

  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('form' as const, 'two_rounds' as const),
      fc.nat(),
      fc.boolean(),
      inputResponsesArb,
      async (tool, pick, withState, inputResponses) => {
        const requestState = withState ? states[tool][pick % states[tool].length] : undefined;
        const runsBefore = witness.runs;
        const reply = await call(fetcher, {
          tool,
          user,
          inputResponses,
          ...(requestState !== undefined && { requestState }),
        });
        expect([200, 400]).toContain(reply.status);
        expect(reply.error !== undefined || reply.result !== undefined).toBe(true);
        const wellShaped = isRecord(inputResponses) && Object.values(inputResponses).every(isRecord);
        if (!wellShaped) {
          expect(reply.error?.code, JSON.stringify(inputResponses)).toBe(-32602);
          expect(witness.runs).toBe(runsBefore);
          count('refused before the handler (not an object of result objects)');
        } else if (reply.error) {
          count(`refused: ${reply.error.code} ${reply.error.message.split(':')[0]}`);
        } else if (reply.result?.resultType === 'input_required') {
          count('asked again or asked the next question');
        } else {
          count(reply.result?.isError ? 'ended with a tool error' : 'completed');
        }
        expect(witness.unchecked).toEqual([]);
        // Still serving: a plain first call gets its question.
        if (++sent % 250 === 0) {
          expect((await call(fetcher, { tool: 'two_rounds', user })).result?.resultType).toBe(
            'input_required',
          );
        }
      },
    ),
    { numRuns: runs, ...(seed !== undefined && { seed }) },
  );
  return counts;
}
