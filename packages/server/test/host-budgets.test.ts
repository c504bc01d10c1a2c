// Fair limits for 2025-era hosts (issue 26): anonymous sessions are counted per address, so one
// address cannot take the anonymous quota from everyone else; a session, and a user across their
// sessions, may have only so many requests in flight, and past that a request is refused with 429
// and a message saying so (not left to stall), while answers to questions are always taken.
// A real server on loopback; callers from different loopback addresses (127.0.0.2, 127.0.0.3, ...).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { ask, createServer, type Listening } from '@parley/server';
import { afterEach, describe, expect, it } from 'vitest';

let listening: Listening | undefined;
const open: IncomingMessage[] = [];
afterEach(async () => {
  for (const response of open.splice(0)) response.destroy();
  await listening?.close();
  listening = undefined;
});

function parleyServer() {
  const server = createServer({ name: 'budgets', version: '1.0.0', log: () => {} });
  server.tool('asks', { description: 'Asks one question.' }, async (_args, ctx) => {
    const answer = await ctx.elicit('A note?', ask.text(), { key: 'q' });
    return answer.action === 'accept' ? `noted ${answer.value}` : answer.action;
  });
  return server;
}

const authenticate = (request: Request) => {
  const user = /^Bearer (\w+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  return user ? { token: user, clientId: user, scopes: [], extra: { sub: user } } : undefined;
};

interface Caller {
  /** The loopback address it connects from. */
  readonly from: string;
  readonly user?: string;
}

/** POSTs a JSON-RPC body from `caller`'s address; resolves with the response (its body unread). */
function post(caller: Caller, body: unknown, session?: string): Promise<IncomingMessage> {
  const url = new URL(listening!.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: caller.from,
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(caller.user && { authorization: `Bearer ${caller.user}` }),
          ...(session && { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }),
        },
      },
      resolve,
    );
    req.once('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function text(response: IncomingMessage): Promise<string> {
  let all = '';
  for await (const chunk of response) all += chunk;
  return all;
}

/** Opens a 2025-era session for `caller`: its status and id. */
async function initialize(caller: Caller): Promise<{ status: number; id?: string; body: string }> {
  const response = await post(caller, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
      clientInfo: { name: 'budget-test', version: '1' },
    },
  });
  const body = await text(response);
  const id = response.headers['mcp-session-id'] as string | undefined;
  if (id) await text(await post(caller, { jsonrpc: '2.0', method: 'notifications/initialized' }, id));
  return { status: response.statusCode!, ...(id && { id }), body };
}

/**
 * Starts a call whose question waits; resolves once the question arrived (with its request id), or
 * with the refusal (status and body) when the call was not taken.
 */
async function pendingCall(
  caller: Caller,
  session: string,
  id: number,
): Promise<{ status: number; questionId?: number; body?: string }> {
  const response = await post(
    caller,
    { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'asks', arguments: {} } },
    session,
  );
  if (response.statusCode !== 200) return { status: response.statusCode!, body: await text(response) };
  open.push(response);
  let seen = '';
  for await (const chunk of response) {
    seen += chunk;
    const question =
      /"id":(\d+),"method":"elicitation\/create"|"method":"elicitation\/create".*?"id":(\d+)/.exec(seen);
    if (question) return { status: 200, questionId: Number(question[1] ?? question[2]) };
  }
  throw new Error(`the call's stream ended without a question: ${seen}`);
}

describe('anonymous sessions per address', () => {
  it('one address cannot take the anonymous quota from the others', async () => {
    listening = await parleyServer().listen({ maxAnonymousSessions: 5, maxSessionsPerAddress: 2 });
    const greedy = { from: '127.0.0.2' };
    // The greedy address tries to hold every anonymous session, each busy with a call.
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) {
      const session = await initialize(greedy);
      statuses.push(session.status);
      if (session.id) expect((await pendingCall(greedy, session.id, 2)).status).toBe(200);
    }
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    const refused = await initialize(greedy);
    expect(JSON.parse(refused.body).error.message).toBe(
      'Too many open anonymous sessions from this address, each busy with a call; end one (DELETE with its Mcp-Session-Id), sign in (send credentials) or wait for a call to finish.',
    );
    // Others still get in, up to the anonymous quota.
    for (const from of ['127.0.0.3', '127.0.0.4', '127.0.0.5']) {
      const session = await initialize({ from });
      expect(session.status).toBe(200);
      expect((await pendingCall({ from }, session.id!, 2)).status).toBe(200);
    }
    // Now all five anonymous sessions are busy: the next address meets the anonymous quota itself.
    expect((await initialize({ from: '127.0.0.6' })).status).toBe(429);
  });
});

describe('requests in flight', () => {
  it('refuses a session past its budget with 429 and a clear error, and still takes every answer', async () => {
    listening = await parleyServer().listen({ maxCallsPerSession: 3 });
    const caller = { from: '127.0.0.1' };
    const session = (await initialize(caller)).id!;
    const calls = [];
    for (let id = 10; id < 13; id++) calls.push(await pendingCall(caller, session, id));
    expect(calls.map((call) => call.status)).toEqual([200, 200, 200]);
    const refused = await pendingCall(caller, session, 13);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body!)).toEqual({
      jsonrpc: '2.0',
      id: 13,
      error: {
        code: -32000,
        message:
          'Too many requests in flight on this session (at most 3); wait for some to finish before sending more.',
      },
    });
    // An answer is a response, not a request: it is taken, and the call it answers ends.
    const answer = await post(
      caller,
      { jsonrpc: '2.0', id: calls[0]!.questionId, result: { action: 'accept', content: { value: 'hi' } } },
      session,
    );
    expect(answer.statusCode).toBe(202);
    await text(answer);
    // With one call done there is room again (the call ends just after its answer is taken; a
    // request sent before that is refused and changes nothing).
    let id = 14;
    await expect.poll(async () => (await pendingCall(caller, session, id++)).status).toBe(200);
  });

  it('counts a user’s requests across their sessions', async () => {
    listening = await parleyServer().listen({ authenticate, maxCallsPerUser: 3 });
    const alice = { from: '127.0.0.1', user: 'alice' };
    const one = (await initialize(alice)).id!;
    const two = (await initialize(alice)).id!;
    expect((await pendingCall(alice, one, 10)).status).toBe(200);
    expect((await pendingCall(alice, one, 11)).status).toBe(200);
    expect((await pendingCall(alice, two, 12)).status).toBe(200);
    const refused = await pendingCall(alice, two, 13);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body!).error.message).toBe(
      'Too many requests in flight of this user across its sessions (at most 3); wait for some to finish before sending more.',
    );
    // Bob's budget is his own.
    const bob = { from: '127.0.0.1', user: 'bob' };
    expect((await pendingCall(bob, (await initialize(bob)).id!, 10)).status).toBe(200);
  });
});
