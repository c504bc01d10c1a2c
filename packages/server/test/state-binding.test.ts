// A sealed requestState opens only for the call it was issued for: same server, tool, arguments and
// user, within its lifetime, under a key of the ring. Everything else gets the same frozen -32602,
// the handler never runs, and the real reason goes to the server's log only.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureEnv, keyRing, newSecret } from './wire/fixture-env.js';
import { callTool, type ModernWire, type RoundInput } from './wire/modern-envelope.js';
import { accept, countersOf, INVALID_STATE, inputRequiredOf } from './wire/modern-results.js';
import { startModernWire, type Transport } from './wire/start-modern.js';

const ORDER = { order: 'A-1' };
const k0 = ['k0', newSecret()] as const;
const k1 = ['k1', newSecret()] as const;
const k2 = ['k2', newSecret()] as const;
const CURRENT: FixtureEnv = { PARLEY_STATE_KEYS: keyRing(k2, k1) };

/** One caller of one server process: over HTTP the user travels as a bearer token, on stdio it is the process's user. */
interface Party {
  readonly wire: ModernWire;
  readonly user: string | undefined;
}

describe.each([['stdio'], ['http']] as [Transport][])('requestState binding over %s', (transport) => {
  const wires: ModernWire[] = [];
  /** Starts a server process; on stdio each user needs its own process (stdio has no auth). */
  const start = async (env: FixtureEnv, user: string | undefined = 'alice'): Promise<Party> => {
    const stdioUser: FixtureEnv =
      transport === 'stdio' && user !== undefined ? { PARLEY_FIXTURE_STDIO_USER: user } : {};
    const wire = await startModernWire(transport, { ...env, ...stdioUser });
    wires.push(wire);
    return { wire, user: transport === 'http' ? user : undefined };
  };
  let alice: Party;
  let replica: Party;
  let bob: Party;
  let otherServer: Party;
  let previousDeployment: Party;
  let retiredDeployment: Party;
  let shortLived: Party;

  beforeAll(async () => {
    [alice, replica, otherServer, previousDeployment, retiredDeployment, shortLived] = await Promise.all([
      start(CURRENT),
      start(CURRENT),
      start({ ...CURRENT, PARLEY_FIXTURE_NAME: 'another-server' }),
      start({ PARLEY_STATE_KEYS: keyRing(k1) }),
      start({ PARLEY_STATE_KEYS: keyRing(k0) }),
      start({ ...CURRENT, PARLEY_FIXTURE_TTL_SECONDS: '4', PARLEY_FIXTURE_CLOCK_SKEW_SECONDS: '0' }),
    ]);
    bob = transport === 'http' ? { wire: alice.wire, user: 'bob' } : await start(CURRENT, 'bob');
  });
  afterAll(() => Promise.all(wires.map((wire) => wire.close())));

  const call = (party: Party, round: RoundInput = {}, tool = 'book_return', args: object = ORDER) =>
    callTool(party.wire, tool, { ...args }, round, party.user === undefined ? {} : { user: party.user });

  /** Round 1 of a booking: the state the next round must bring back. */
  const firstState = async (party: Party, tool = 'book_return', args: object = ORDER) =>
    inputRequiredOf(await call(party, {}, tool, args)).requestState;

  /** Presents `requestState` to `party`: expects the frozen error, an untouched handler and `reason` in the log. */
  async function expectRefused(
    party: Party,
    requestState: unknown,
    reason: string | undefined,
    tool = 'book_return',
    args: object = ORDER,
  ) {
    const before = await countersOf(party.wire, party.user);
    const logMark = party.wire.log().length;
    const reply = await call(party, { requestState, inputResponses: { boxes: accept(2) } }, tool, args);
    expect(reply.message.error).toEqual(INVALID_STATE);
    expect(reply.message.result).toBeUndefined();
    const after = await countersOf(party.wire, party.user);
    expect(after.runs[tool]).toBe(before.runs[tool]);
    if (reason !== undefined)
      await expect.poll(() => party.wire.log().slice(logMark)).toContain(`{"reason":"${reason}"}`);
  }

  /** The state opened: the booking moved on to its pickup questions. */
  async function expectOpens(party: Party, requestState: string, tool = 'book_return') {
    const next = inputRequiredOf(
      await call(party, { requestState, inputResponses: { boxes: accept(2) } }, tool),
    );
    expect(Object.keys(next.inputRequests).sort()).toEqual(['date', 'slot']);
    return next.requestState;
  }

  it('opens on any replica of the same server with the same keys (the control for what follows)', async () => {
    await expectOpens(replica, await firstState(alice));
  });

  it('refuses a tampered state', async () => {
    const state = await firstState(alice);
    const middle = Math.floor(state.length / 2);
    const flipped = `${state.slice(0, middle)}${state[middle] === 'A' ? 'B' : 'A'}${state.slice(middle + 1)}`;
    await expectRefused(alice, flipped, 'unauthentic');
    await expectRefused(alice, `${state}-TAMPERED`, undefined);
    await expectRefused(alice, state.toUpperCase(), undefined);
  });

  it('refuses a truncated state', async () => {
    const state = await firstState(alice);
    await expectRefused(alice, state.slice(0, -8), undefined);
    await expectRefused(alice, state.slice(0, 10), 'malformed');
    await expectRefused(alice, '', 'malformed');
  });

  it('refuses an expired state (and opens the same bytes while they are fresh)', async () => {
    const state = await firstState(shortLived);
    const issuedBy = Date.now();
    await expectOpens(shortLived, state);
    // ttl 4 s, no skew allowance: expired once the clock reaches the fifth second after issue, and
    // fresh for 4 s at least (room for a slow round trip on a busy machine).
    await sleep((Math.floor(issuedBy / 1000) + 5) * 1000 + 100 - Date.now());
    await expectRefused(shortLived, state, 'expired');
  });

  it('refuses a state from another server, even one sharing the keys', async () => {
    await expectRefused(otherServer, await firstState(alice), 'unauthentic');
    await expectRefused(alice, await firstState(otherServer), 'unauthentic');
  });

  it('refuses a state from another tool, even one asking the very same question', async () => {
    await expectRefused(alice, await firstState(alice, 'book_return_twin'), 'unauthentic', 'book_return');
    await expectRefused(alice, await firstState(alice, 'book_return'), 'unauthentic', 'book_return_twin');
  });

  it('refuses a state issued for other arguments', async () => {
    const state = await firstState(alice, 'book_return', { order: 'A-1' });
    await expectRefused(alice, state, 'unauthentic', 'book_return', { order: 'A-2' });
    await expectOpens(alice, state);
  });

  it('refuses a state issued to another user', async () => {
    await expectRefused(bob, await firstState(alice), 'unauthentic');
    await expectRefused(alice, await firstState(bob), 'unauthentic');
    if (transport === 'http') {
      const anonymous: Party = { wire: alice.wire, user: undefined };
      await expectRefused(anonymous, await firstState(alice), 'unauthentic');
      await expectRefused(alice, await firstState(anonymous), 'unauthentic');
    }
  });

  it('refuses a state sealed with a retired key, and opens one sealed with the previous key of the ring', async () => {
    await expectRefused(alice, await firstState(retiredDeployment), 'unknown-key');
    const resealed = await expectOpens(alice, await firstState(previousDeployment));
    // The next round is sealed with the current key, which the previous deployment does not have.
    await expectRefused(previousDeployment, resealed, 'unknown-key', 'book_return');
  });

  it('refuses a state longer than any this server issues, unread', async () => {
    await expectRefused(alice, 'A'.repeat(16_385), 'too-large');
  });

  it('refuses a requestState that is not a string, before the handler runs', async () => {
    const before = await countersOf(alice.wire, alice.user);
    for (const requestState of [42, null, { token: 'x' }]) {
      const reply = await call(alice, { requestState, inputResponses: { boxes: accept(2) } });
      expect(reply.message.error?.code).toBe(-32602);
      expect(reply.message.error?.message).toMatch(/requestState/);
    }
    expect((await countersOf(alice.wire, alice.user)).runs.book_return).toBe(before.runs.book_return);
  });
});
