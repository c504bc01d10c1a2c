// The attacks on the 2025 session transport that held in issue 24's review, kept as regression
// tests against the fixture server as a real process over loopback HTTP: session fixation,
// Last-Event-ID from another session or user, SSE frame injection, and batch and id abuse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';

const VERSION = '2025-11-25';
let fixture: HttpFixture;

beforeAll(async () => {
  fixture = await startHttpFixture({ PARLEY_FIXTURE_QUESTION_TIMEOUT_MS: '20000' });
});
afterAll(() => fixture?.stop());

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly headers: Headers;
}

async function request(
  method: 'POST' | 'GET',
  headers: Record<string, string>,
  body?: unknown,
  abortAfterHeaders = false,
): Promise<Answer> {
  const controller = new AbortController();
  const response = await fetch(fixture.url, {
    method,
    signal: controller.signal,
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (abortAfterHeaders) {
    controller.abort();
    return { status: response.status, text: '', headers: response.headers };
  }
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** A session of `user` (initialize, then initialized); its headers for every later request. */
async function session(user: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const auth = { authorization: `Bearer ${user}` };
  const opened = await request(
    'POST',
    { ...auth, ...extra },
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: VERSION,
        capabilities: { elicitation: {} },
        clientInfo: { name: 'attacker', version: '1' },
      },
    },
  );
  expect(opened.status).toBe(200);
  const headers = {
    ...auth,
    'mcp-session-id': opened.headers.get('mcp-session-id')!,
    'mcp-protocol-version': VERSION,
  };
  expect(
    (await request('POST', headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).status,
  ).toBe(202);
  return headers;
}

/** The SSE events of a body, each as its fields. */
function events(text: string): { id?: string; event?: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const fields: { id?: string; event?: string; data: string } = { data: '' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        const [name, value] = [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, '')];
        if (name === 'id') fields.id = value;
        else if (name === 'event') fields.event = value;
        else if (name === 'data') fields.data += value;
      }
      return fields;
    });
}

let nextId = 100;
const call = (name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('session fixation', () => {
  it('never opens a session under an id the client chose', async () => {
    const chosen = '11111111-2222-3333-4444-555555555555';
    const refused = await request(
      'POST',
      { authorization: 'Bearer alice', 'mcp-session-id': chosen },
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: VERSION,
          capabilities: {},
          clientInfo: { name: 'attacker', version: '1' },
        },
      },
    );
    expect(refused.status).toBe(404);
    const later = await request(
      'POST',
      { authorization: 'Bearer alice', 'mcp-session-id': chosen, 'mcp-protocol-version': VERSION },
      call('counters'),
    );
    expect(later.status).toBe(404);
    const fresh = await session('alice');
    expect(fresh['mcp-session-id']).not.toBe(chosen);
  });
});

describe('Last-Event-ID from elsewhere', () => {
  it('is unknown on another session of the same user, and on another user’s session', async () => {
    const alice = await session('alice');
    const answered = await request('POST', alice, call('counters'));
    const eventId = events(answered.text).find((event) => event.id !== undefined)?.id;
    expect(eventId).toBeDefined();
    for (const other of [await session('alice'), await session('mallory')]) {
      const resumed = await request('GET', {
        ...other,
        'last-event-id': eventId!,
        accept: 'text/event-stream',
      });
      expect(resumed.status).toBe(400);
      expect(resumed.text).toContain('Unknown Last-Event-ID');
    }
    // Mallory's own session id with Alice's: the session is not hers.
    const stolen = await request('GET', {
      ...alice,
      authorization: 'Bearer mallory',
      'last-event-id': eventId!,
      accept: 'text/event-stream',
    });
    expect(stolen.status).toBe(404);
  });
});

describe('SSE frame injection', () => {
  it('keeps client text with blank lines and field names inside one event', async () => {
    const alice = await session('alice');
    const forged =
      'x\n\nevent: message\nid: 9_9\ndata: {"jsonrpc":"2.0","id":1,"result":{"forged":true}}\n\n';
    const answered = await request('POST', alice, { ...call(forged), id: 1 });
    expect(answered.status).toBe(200);
    const sent = events(answered.text).filter((event) => event.data !== '');
    expect(sent).toHaveLength(1);
    const message = JSON.parse(sent[0]!.data) as {
      id: number;
      result?: unknown;
      error?: { message: string };
    };
    expect(message.id).toBe(1);
    expect(JSON.stringify(message)).not.toContain('"forged":true}}');
    expect(sent[0]!.id).not.toBe('9_9');
  });
});

describe('batch and id abuse', () => {
  it('refuses duplicate ids in a batch, an id still pending, oversized batches and initialize in a batch', async () => {
    const alice = await session('alice');
    const duplicate = await request('POST', alice, [
      { ...call('counters'), id: 5 },
      { ...call('counters'), id: 5 },
    ]);
    expect(duplicate.status).toBe(400);
    expect(duplicate.text).toContain('already in use');

    // A call that waits on a question keeps its id; the same id again is refused while it waits.
    const waiting = await request('POST', alice, { ...call('cancellable'), id: 'pending-1' }, true);
    expect(waiting.status).toBe(200);
    const reused = await request('POST', alice, { ...call('counters'), id: 'pending-1' });
    expect(reused.status).toBe(400);
    expect(reused.text).toContain('already in use');

    const huge = await request(
      'POST',
      alice,
      Array.from({ length: 101 }, (_, i) => ({ ...call('counters'), id: `b${i}` })),
    );
    expect(huge.status).toBe(400);
    expect(huge.text).toContain('at most 100');

    const initialize = await request('POST', alice, [
      {
        jsonrpc: '2.0',
        id: 'i',
        method: 'initialize',
        params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
      call('counters'),
    ]);
    expect(initialize.status).toBe(400);
  });

  it('ignores a response to a request the server never sent, and goes on serving the session', async () => {
    const alice = await session('alice');
    const stray = await request('POST', alice, {
      jsonrpc: '2.0',
      id: 'never-sent',
      result: { action: 'accept', content: {} },
    });
    expect(stray.status).toBe(202);
    const still = await request('POST', alice, call('counters'));
    expect(still.status).toBe(200);
    expect(events(still.text).some((event) => event.data.includes('"result"'))).toBe(true);
  });
});
