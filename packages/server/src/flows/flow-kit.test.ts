import { describe, expect, it, vi } from 'vitest';
import { FlowKit, type FlowPage } from './flow-kit.js';
import { MemoryFlowStore } from './memory-store.js';

const ORIGIN = 'http://127.0.0.1:4000';

function kit(options: { now?: () => number; server?: string; store?: MemoryFlowStore } = {}) {
  const log = vi.fn();
  const now = options.now ?? Date.now;
  const flows = new FlowKit(
    options.server ?? 'shop',
    {
      publicUrl: ORIGIN,
      session: (request) => request.headers.get('x-test-user') ?? undefined,
      signIn: (returnTo) => `${ORIGIN}/signin?next=${encodeURIComponent(returnTo)}`,
      store: options.store ?? new MemoryFlowStore({ now }),
      ttlSeconds: 60,
    },
    log,
    now,
  );
  const page = vi.fn<FlowPage>(async (request, flow, { complete }) => {
    if (request.method === 'POST') {
      await complete({ account: `${flow.principal}@shop` });
      return new Response('linked');
    }
    return new Response('sign-in form');
  });
  flows.register('account', page);
  return { flows, page, log };
}

const open = (flows: FlowKit, url: string, user?: string, method = 'GET') =>
  flows.handle(new Request(url, { method, headers: user ? { 'x-test-user': user } : {} }));

describe('FlowKit', () => {
  it('gives a URL on the server origin that carries only the opaque id', async () => {
    const { flows } = kit();
    const flow = await flows.create('account', 'alice', { plan: 'gold' });
    const url = flows.urlFor(flow.id);
    expect(url).toBe(`${ORIGIN}/connect/${flow.id}`);
    expect(url).not.toMatch(/alice|gold|account/);
    expect(flow.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('completes a flow for the user who started it, once', async () => {
    const { flows, page } = kit();
    const flow = await flows.create('account', 'alice', null);
    expect(await flows.check(flow.id, 'alice')).toEqual({ status: 'pending' });
    const response = await open(flows, flows.urlFor(flow.id), 'alice', 'POST');
    expect(await response!.text()).toBe('linked');
    expect(await flows.check(flow.id, 'alice')).toEqual({
      status: 'done',
      result: { account: 'alice@shop' },
    });
    // The link is single-use: opening it again does nothing.
    const again = await open(flows, flows.urlFor(flow.id), 'alice', 'POST');
    expect(again!.status).toBe(410);
    expect(page).toHaveBeenCalledTimes(1);
  });

  it('sends a browser nobody is signed in on to the sign-in page, coming back to the flow', async () => {
    const { flows, page } = kit();
    const flow = await flows.create('account', 'alice', null);
    const response = await open(flows, flows.urlFor(flow.id));
    expect(response!.status).toBe(303);
    expect(response!.headers.get('location')).toBe(
      `${ORIGIN}/signin?next=${encodeURIComponent(flows.urlFor(flow.id))}`,
    );
    expect(page).not.toHaveBeenCalled();
  });

  it('refuses (and logs) a victim who opens an attacker-made link, and links nothing', async () => {
    const { flows, page, log } = kit();
    const attackers = await flows.create('account', 'mallory', null);
    const response = await open(flows, flows.urlFor(attackers.id), 'alice', 'POST');
    expect(response!.status).toBe(403);
    expect(await response!.text()).toMatch(/another account/);
    expect(page).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith(
      'warn',
      expect.stringMatching(/not the user who started the flow/),
      expect.anything(),
    );
    expect(await flows.check(attackers.id, 'mallory')).toEqual({ status: 'pending' });
  });

  it('refuses expired, unknown, malformed and other-server flow ids', async () => {
    let now = 1_000_000;
    const store = new MemoryFlowStore({ now: () => now });
    const { flows, page } = kit({ now: () => now, store });
    const flow = await flows.create('account', 'alice', null);
    now += 61_000;
    expect((await open(flows, flows.urlFor(flow.id), 'alice'))!.status).toBe(410);
    expect(await flows.check(flow.id, 'alice')).toEqual({ status: 'expired' });
    expect((await open(flows, `${ORIGIN}/connect/${'A'.repeat(43)}`, 'alice'))!.status).toBe(404);
    expect((await open(flows, `${ORIGIN}/connect/%2e%2e%2fsecret`, 'alice'))!.status).toBe(404);
    expect((await open(flows, `${ORIGIN}/connect/short`, 'alice'))!.status).toBe(404);
    const other = kit({ server: 'other-shop', store, now: () => now }).flows;
    const foreign = await other.create('account', 'alice', null);
    expect((await open(flows, flows.urlFor(foreign.id), 'alice'))!.status).toBe(404);
    expect(await flows.check(foreign.id, 'alice')).toEqual({ status: 'expired' });
    expect(page).not.toHaveBeenCalled();
    expect(await open(flows, `${ORIGIN}/elsewhere`, 'alice')).toBeUndefined();
  });

  it("does not tell a retry by another user about someone else's flow", async () => {
    const { flows } = kit();
    const flow = await flows.create('account', 'alice', null);
    await open(flows, flows.urlFor(flow.id), 'alice', 'POST');
    expect(await flows.check(flow.id, 'mallory')).toEqual({ status: 'expired' });
  });

  it('refuses to create a flow no page serves', async () => {
    const { flows } = kit();
    await expect(flows.create('nope', 'alice', null)).rejects.toThrow(/server\.flow\("nope"/);
  });
});
