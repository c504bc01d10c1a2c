import { fileURLToPath } from 'node:url';
import { startRedis } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHandshake, textOf } from './wire/handshake-client.js';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';
import { httpWire } from './wire/http-wire.js';
import { CAPABILITIES, type ModernReply } from './wire/modern-envelope.js';

// URL flows end to end: the real flow-server fixture (its own sign-in and cookie sessions, the
// URL-flow kit, a Redis flow store), a raw 2026-07-28 client, and "browsers" that are plain HTTP
// clients with their own cookie jars.

const FLOW_SERVER = fileURLToPath(new URL('./dist/fixtures/flow-server.js', import.meta.url));

type FlowServer = HttpFixture & { readonly origin: string };

async function startFlowServer(env: Record<string, string>): Promise<FlowServer> {
  const fixture = await startHttpFixture(env, FLOW_SERVER);
  return { ...fixture, origin: new URL(fixture.url).origin };
}

/** A person's browser: one cookie jar, following nothing by itself. */
class Browser {
  #cookie = '';
  constructor(readonly origin: string) {}

  async signIn(user: string): Promise<void> {
    const body = new URLSearchParams({ user, password: `${user}-password` });
    const response = await fetch(`${this.origin}/signin`, { method: 'POST', body, redirect: 'manual' });
    expect(response.status).toBe(303);
    this.#cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  }

  open(url: string, method: 'GET' | 'POST' = 'GET'): Promise<Response> {
    return fetch(url, { method, redirect: 'manual', headers: this.#cookie ? { cookie: this.#cookie } : {} });
  }
}

const connect = (wire: ReturnType<typeof httpWire>, user: string, extra: Record<string, unknown> = {}) =>
  wire.request(
    'tools/call',
    { name: 'connect_account', arguments: {}, ...extra },
    { capabilities: CAPABILITIES.formAndUrl, user },
  );

function urlQuestion(reply: ModernReply): { url: string; state: string } {
  const result = reply.message.result as {
    resultType: string;
    inputRequests: Record<string, { params: { mode: string; url: string } }>;
    requestState: string;
  };
  expect(result.resultType).toBe('input_required');
  const question = result.inputRequests.connect!;
  expect(question.params.mode).toBe('url');
  return { url: question.params.url, state: result.requestState };
}

const textResult = (reply: ModernReply) =>
  (reply.message.result as { content: { text: string }[] }).content[0]!.text;
const retry = (state: string, action = 'accept') => ({
  requestState: state,
  inputResponses: { connect: { action } },
});

let redis: Awaited<ReturnType<typeof startRedis>>;
let shop: FlowServer;
let shortLived: FlowServer;
let otherShop: FlowServer;

beforeAll(async () => {
  redis = await startRedis();
  [shop, shortLived, otherShop] = await Promise.all([
    startFlowServer({ REDIS_URL: redis.url }),
    startFlowServer({ FLOW_SERVER_NAME: 'short-shop', FLOW_TTL_SECONDS: '1' }),
    startFlowServer({ REDIS_URL: redis.url, FLOW_SERVER_NAME: 'other-shop' }),
  ]);
});
afterAll(async () => {
  await Promise.all([shop?.stop(), shortLived?.stop(), otherShop?.stop()]);
  await redis?.stop();
});

describe('URL flows on 2026-07-28', () => {
  it('links the account of the user who made the call, once the page is done', async () => {
    const wire = httpWire(shop.url);
    const { url, state } = urlQuestion(await connect(wire, 'alice'));
    expect(url).toMatch(new RegExp(`^${shop.origin}/connect/[A-Za-z0-9_-]{43}$`));

    // "I've finished" before finishing: the flow is still pending, so the question comes again.
    const early = urlQuestion(await connect(wire, 'alice', retry(state)));
    expect(early.url).toBe(url);

    const browser = new Browser(shop.origin);
    const anonymous = await browser.open(url);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`${shop.origin}/signin?next=${encodeURIComponent(url)}`);
    await browser.signIn('alice');
    expect((await browser.open(url)).status).toBe(200);
    expect((await browser.open(url, 'POST')).status).toBe(200);

    const done = await connect(wire, 'alice', retry(early.state));
    expect(textResult(done)).toBe('Connected: alice@shop');
    // The link is single-use.
    expect((await browser.open(url, 'POST')).status).toBe(410);
  });

  it('refuses the attack: a victim who opens an attacker-made link links nothing', async () => {
    const wire = httpWire(shop.url);
    const { url, state } = urlQuestion(await connect(wire, 'mallory'));
    const victim = new Browser(shop.origin);
    await victim.signIn('alice');
    const refused = await victim.open(url, 'POST');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/another account/);
    expect(shop.log()).toMatch(
      /Refused a flow page: the signed-in user is not the user who started the flow/,
    );

    // The attacker's call learns nothing: its flow is still pending.
    const attacker = urlQuestion(await connect(wire, 'mallory', retry(state)));
    expect(attacker.url).toBe(url);
    const linked = await wire.request(
      'tools/call',
      { name: 'linked_accounts', arguments: {} },
      { user: 'mallory' },
    );
    expect(JSON.parse(textResult(linked))).not.toHaveProperty('mallory');
  });

  it('cancels the flow when the person declines, so the link stops working', async () => {
    const wire = httpWire(shop.url);
    const { url, state } = urlQuestion(await connect(wire, 'alice'));
    expect(textResult(await connect(wire, 'alice', retry(state, 'decline')))).toBe(
      'Not connected (decline).',
    );
    const browser = new Browser(shop.origin);
    await browser.signIn('alice');
    expect((await browser.open(url)).status).toBe(410);
  });

  it('ends the call clearly when the link expired, and the expired link does nothing', async () => {
    const wire = httpWire(shortLived.url);
    const { url, state } = urlQuestion(await connect(wire, 'alice'));
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const ended = await connect(wire, 'alice', retry(state));
    expect((ended.message.result as { isError?: boolean }).isError).toBe(true);
    expect(textResult(ended)).toMatch(/was not finished before its link expired\. Call the tool again/);
    const browser = new Browser(shortLived.origin);
    await browser.signIn('alice');
    expect((await browser.open(url)).status).toBe(410);
  });

  it('refuses a flow id from another server, even one sharing the store', async () => {
    const { url } = urlQuestion(await connect(httpWire(otherShop.url), 'alice'));
    const foreign = url.replace(otherShop.origin, shop.origin);
    const browser = new Browser(shop.origin);
    await browser.signIn('alice');
    expect((await browser.open(foreign)).status).toBe(404);
  });

  it('cannot start a flow for an anonymous caller', async () => {
    const reply = await connect(httpWire(shop.url), 'nobody');
    expect(textResult(reply)).toMatch(/needs a signed-in user/);
  });
});

describe('URL flows on 2025-11-25', () => {
  it('waits on the session until the page is done, then sends elicitation/complete', async () => {
    const browser = new Browser(shop.origin);
    await browser.signIn('alice');
    let elicitationId = '';
    const connection = await connectHandshake(
      { url: shop.url, user: 'alice' },
      {
        capabilities: { elicitation: { url: {} } },
        answer: (request) => {
          const params = request.params as { mode: string; url: string; elicitationId: string };
          expect(params.mode).toBe('url');
          elicitationId = params.elicitationId;
          // The person consents, and finishes on the page a moment later.
          setTimeout(() => void browser.open(params.url, 'POST'), 300);
          return { action: 'accept' };
        },
      },
    );
    const completed: string[] = [];
    connection.client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      completed.push(notification.params.elicitationId);
    });
    try {
      const result = await connection.callTool('connect_account');
      expect(textOf(result)).toBe('Connected: alice@shop');
      expect(elicitationId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(completed).toEqual([elicitationId]);
    } finally {
      await connection.close();
    }
  });
});
