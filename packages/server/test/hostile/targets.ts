import { ask, createServer, type Endpoint, type ParleyContext, type ParleyServer } from '@parley/server';
import { afterAll, beforeAll } from 'vitest';
import * as z from 'zod/v4';
import type { TargetName } from './state-corpus.js';

/** Two key rings that share nothing, and one that holds a key under another id. */
const secret = (fill: number) => Buffer.alloc(32, fill).toString('base64');
export const RING_ONE = `k1:${secret(1)}`;
export const RING_TWO = `k2:${secret(2)}`;
/** `kx` is k1's id swapped for another key: a k1 token relabelled `kx` must not open. */
export const RING_RELABEL = `kx:${secret(3)},k1:${secret(1)}`;

/** What the handlers of every hostile-input server did: the witnesses that nothing got through. */
export const witness = {
  /** Handler runs (each round of a 2026-07-28 call runs the handler again). */
  runs: 0,
  /** `ctx.once` side effects. */
  effects: 0,
  /** Accepted answers that broke their own question's rules (must stay empty). */
  unchecked: [] as string[],
};

const USERS = new Set(['alice', 'bob']);

/** The tests' own authentication: `Authorization: Bearer <user>` for the known users. */
export function authenticate(request: Request) {
  const user = /^Bearer (\w+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  return user && USERS.has(user)
    ? { token: user, clientId: user, scopes: [], extra: { sub: user } }
    : undefined;
}

/** One server the hostile inputs are thrown at, in process (`endpoint.fetch`: the real server code, no network). */
export interface Target {
  readonly label: string;
  readonly server: ParleyServer;
  readonly endpoint: Endpoint;
}

/**
 * The questions every target asks, the same in every tool, so a state or an answer meant for one
 * tool is well-formed for any other and only the binding tells them apart.
 */
function registerTools(server: ParleyServer): void {
  const twoRounds = async (ctx: ParleyContext) => {
    witness.runs++;
    const name = await ctx.elicit('Your name?', ask.text({ title: 'Name', maxLength: 40 }), { key: 'first' });
    if (name.action !== 'accept') return `stopped (${name.action})`;
    if (typeof name.value !== 'string' || name.value.length > 40)
      witness.unchecked.push(`first: ${JSON.stringify(name.value)}`);
    const boxes = await ctx.elicit('How many boxes?', ask.integer({ min: 1, max: 3 }), { key: 'second' });
    if (boxes.action !== 'accept') return `stopped (${boxes.action})`;
    if (!Number.isInteger(boxes.value) || boxes.value < 1 || boxes.value > 3) {
      witness.unchecked.push(`second: ${JSON.stringify(boxes.value)}`);
    }
    const id = await ctx.once('book', () => ++witness.effects);
    return `booked #${id}`;
  };
  server.tool('two_rounds', { description: 'Two questions, then a side effect.' }, (_args, ctx) =>
    twoRounds(ctx),
  );
  server.tool('other_tool', { description: 'The same questions under another name.' }, (_args, ctx) =>
    twoRounds(ctx),
  );
  server.tool(
    'with_args',
    { description: 'The same questions for an order.', input: z.object({ order: z.string() }) },
    (_args, ctx) => twoRounds(ctx),
  );
  server.tool('form', { description: 'One form of every field kind.' }, async (_args, ctx) => {
    witness.runs++;
    const answer = await ctx.elicit(
      'Tell us about the return',
      ask.form({
        reason: ask.choice(['Broken', 'Wrong item'], { title: 'Reason' }),
        email: ask.email({ title: 'Email' }),
        boxes: ask.integer({ title: 'Boxes', min: 1, max: 3 }),
        weight: ask.number({ title: 'Weight', min: 0, max: 50 }),
        pickup: ask.date({ title: 'Pickup date' }),
        tags: ask.many(['fragile', 'heavy', 'gift'], { title: 'Tags', min: 1, max: 2 }),
        wrap: ask.boolean({ title: 'Gift-wrap', optional: true }),
      }),
      { key: 'return' },
    );
    if (answer.action !== 'accept') return `stopped (${answer.action})`;
    const v = answer.value;
    const fine =
      (v.reason === 'Broken' || v.reason === 'Wrong item') &&
      typeof v.email === 'string' &&
      /^[^@\s]+@[^@\s]+$/.test(v.email) &&
      Number.isInteger(v.boxes) &&
      v.boxes >= 1 &&
      v.boxes <= 3 &&
      typeof v.weight === 'number' &&
      v.weight >= 0 &&
      v.weight <= 50 &&
      /^\d{4}-\d{2}-\d{2}$/.test(v.pickup) &&
      Array.isArray(v.tags) &&
      v.tags.length >= 1 &&
      v.tags.length <= 2 &&
      v.tags.every((tag) => ['fragile', 'heavy', 'gift'].includes(tag)) &&
      (v.wrap === undefined || typeof v.wrap === 'boolean');
    if (!fine) witness.unchecked.push(`form: ${JSON.stringify(v)}`);
    return 'return booked';
  });
}

/** A hostile-input server: `name` and key ring are what a sealed state is bound to. */
export function target(label: string, name: string, keys: string): Target {
  const server = createServer({ name, version: '1.0.0', state: { keys }, log: () => {} });
  registerTools(server);
  const endpoint = server.endpoint({ authenticate });
  return { label, server, endpoint };
}

/** The servers states travel between: a replica of A, another server on A's keys, A's name on other keys. */
export function targets() {
  return {
    a: target('server A', 'hostile-a', RING_ONE),
    aReplica: target('a replica of A', 'hostile-a', RING_ONE),
    b: target('server B (same keys)', 'hostile-b', RING_ONE),
    c: target("A's name, other keys", 'hostile-a', RING_TWO),
    relabel: target("A's name, a key relabelled", 'hostile-a', RING_RELABEL),
  };
}

/**
 * The same servers listening on loopback HTTP for the tests of the current `describe`: started
 * before its tests, closed after them. `urls` fills in when they listen.
 */
export function targetsOverHttp(): { servers: ReturnType<typeof targets>; urls: Map<TargetName, string> } {
  const servers = targets();
  const urls = new Map<TargetName, string>();
  const closers: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    for (const [name, target] of Object.entries(servers) as [TargetName, Target][]) {
      const listening = await target.server.listen({ port: 0, authenticate });
      urls.set(name, listening.url);
      closers.push(listening.close);
    }
  });
  afterAll(() => Promise.all(closers.map((close) => close())));
  return { servers, urls };
}
