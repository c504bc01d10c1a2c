// Issue 15, finding 5: the 2025-era session cap was global and open to anonymous callers; 1,000
// anonymous initializes locked alice out (503) for 30 minutes. Now sessions have quotas per user
// and for anonymous callers, idle sessions are evicted before anyone is refused, and a timer sweeps
// expired ones.
import { ask, createServer, type Listening } from '@parley/server';
import { SETTLE_TIMEOUT_MS } from '@parley/testing';
import { afterEach, expect, it } from 'vitest';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
let listening: Listening | undefined;
afterEach(() => listening?.close());

function parleyServer() {
  const server = createServer({ name: 'quotas', version: '1.0.0', log: () => {} });
  server.tool('asks', { description: 'Asks one question.' }, async (_args, ctx) => {
    const answer = await ctx.elicit('A note?', ask.text(), { key: 'q' });
    return answer.action;
  });
  return server;
}

const authenticate = (request: Request) => {
  const user = /^Bearer (\w+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  return user ? { token: user, clientId: user, scopes: [], extra: { sub: user } } : undefined;
};

function post(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(body),
    ...(signal && { signal }),
  });
}

/** Opens a 2025-era session; the response status and its id. */
async function initialize(url: string, user?: string) {
  const auth: Record<string, string> = user ? { authorization: `Bearer ${user}` } : {};
  const response = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'quota-test', version: '1' },
      },
    },
    auth,
  );
  await response.body?.cancel();
  const id = response.headers.get('mcp-session-id') ?? undefined;
  if (id) {
    const done = await post(
      url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        ...auth,
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-06-18',
      },
    );
    await done.body?.cancel();
  }
  return { status: response.status, id, auth };
}

/** Starts a call that waits on a question nobody answers; resolves once the question arrived. */
async function pendingCall(url: string, session: { id?: string; auth: Record<string, string> }) {
  const abort = new AbortController();
  const response = await post(
    url,
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'asks', arguments: {} } },
    { ...session.auth, 'mcp-session-id': session.id!, 'mcp-protocol-version': '2025-06-18' },
    abort.signal,
  );
  const reader = response.body!.getReader();
  let text = '';
  while (!text.includes('elicitation/create')) text += new TextDecoder().decode((await reader.read()).value);
  return abort;
}

it('1,020 anonymous initializes cannot lock alice out', async () => {
  listening = await parleyServer().listen({ authenticate });
  const statuses = new Map<number, number>();
  for (let batch = 0; batch < 51; batch++) {
    const results = await Promise.all(Array.from({ length: 20 }, () => initialize(listening!.url)));
    for (const { status } of results) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  console.log(`anonymous initializes: ${[...statuses].map(([status, n]) => `${n}× ${status}`).join(', ')}`);
  const alice = await initialize(listening.url, 'alice');
  expect(alice.status).toBe(200);
  expect(alice.id).toBeDefined();
  const list = await post(
    listening.url,
    { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    { ...alice.auth, 'mcp-session-id': alice.id!, 'mcp-protocol-version': '2025-06-18' },
  );
  expect(await list.text()).toContain('"asks"');
});

it('evicts a user’s idle session to make room, and refuses only when every session is busy', async () => {
  // A dropped call ends at once here (no resume grace), so a session whose call was dropped is idle.
  listening = await parleyServer().listen({ authenticate, maxSessionsPerUser: 2, resumeGraceMs: 0 });
  const url = listening.url;
  const first = await initialize(url, 'alice');
  const second = await initialize(url, 'alice');
  // Both idle: a third evicts the least recently used (the first).
  const third = await initialize(url, 'alice');
  expect(third.status).toBe(200);
  const gone = await post(
    url,
    { jsonrpc: '2.0', id: 4, method: 'tools/list' },
    {
      ...first.auth,
      'mcp-session-id': first.id!,
      'mcp-protocol-version': '2025-06-18',
    },
  );
  expect(gone.status).toBe(404);
  // Both open sessions busy with a call waiting on an answer: the next is refused, not evicted.
  const calls = [await pendingCall(url, second), await pendingCall(url, third)];
  const refused = await initialize(url, 'alice');
  expect(refused.status).toBe(429);
  // Bob has his own quota.
  expect((await initialize(url, 'bob')).status).toBe(200);
  // Once a call ends, its session is idle again and makes room.
  calls[0]!.abort();
  // As soon as the server has seen the call end (a refused initialize leaves nothing behind).
  await expect
    .poll(async () => (await initialize(url, 'alice')).status, { timeout: SETTLE_TIMEOUT_MS })
    .toBe(200);
  calls[1]!.abort();
});

it('sweeps idle sessions on a timer, with no request needed', async () => {
  const endpoint = parleyServer().endpoint({ sessionIdleMs: 300 });
  const response = await endpoint.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { ...HEADERS, host: '127.0.0.1' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    }),
  );
  expect(response.status).toBe(200);
  expect(endpoint.sessions).toBe(1);
  // Swept once idle for 300 ms, by the timer alone: nothing is sent meanwhile.
  await expect.poll(() => endpoint.sessions, { timeout: SETTLE_TIMEOUT_MS }).toBe(0);
  await endpoint.close();
});
