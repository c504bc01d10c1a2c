// What the HTTP endpoint refuses before any handler runs: foreign Host and Origin (DNS rebinding and
// cross-site pages), oversized and undecodable bodies, and a 2025 session presented by another user.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHandshake, type HandshakeConnection } from './wire/handshake-client.js';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';
import { httpWire, modernHeaders } from './wire/http-wire.js';
import { CAPABILITIES, type ModernWire, modernMeta } from './wire/modern-envelope.js';
import { countersOf } from './wire/modern-results.js';
import { rawRequest } from './wire/raw-http.js';

const MAX_BODY = 64 * 1024;

let fixture: HttpFixture;
let wire: ModernWire;
let port: string;
beforeAll(async () => {
  fixture = await startHttpFixture({ PARLEY_FIXTURE_MAX_BODY_BYTES: String(MAX_BODY) });
  wire = httpWire(fixture.url, fixture.log);
  port = new URL(fixture.url).port;
});
afterAll(() => fixture?.stop());

/** A modern `tools/call` of the booking tool, padded to about `padding` bytes. */
function bookingCall(padding = 0) {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      _meta: { ...modernMeta(CAPABILITIES.formOnly), 'dev.example/padding': 'x'.repeat(padding) },
      name: 'book_return',
      arguments: { order: 'G-1' },
    },
  };
}

/** POSTs `body` to the endpoint with a modern client's headers plus `headers`. */
function post(body: Uint8Array | string | Readable, headers: Record<string, string> = {}) {
  return rawRequest(fixture.url, { headers: { ...modernHeaders(bookingCall()), ...headers }, body });
}

/** Runs `send` and checks the booking handler did not run. */
async function withoutRunning<T>(send: () => Promise<T>): Promise<T> {
  const before = await countersOf(wire);
  const result = await send();
  expect((await countersOf(wire)).runs.book_return).toBe(before.runs.book_return);
  return result;
}

describe('Host and Origin checks', () => {
  it('refuses a foreign Host with 403, and serves the loopback names', async () => {
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`]) {
      const refused = await withoutRunning(() => post(JSON.stringify(bookingCall()), { host }));
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.code).toBe(-32000);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const served = await post(JSON.stringify(bookingCall()), { host });
      expect(served.status).toBe(200);
      expect(served.body).toContain('input_required');
    }
  });

  it('refuses a foreign Origin with 403, and serves loopback origins and clients that send none', async () => {
    for (const origin of ['https://evil.example', 'http://localhost.evil.example:3000', 'null']) {
      const refused = await withoutRunning(() => post(JSON.stringify(bookingCall()), { origin }));
      expect(refused.status).toBe(403);
    }
    for (const origin of ['http://localhost:5173', `http://127.0.0.1:${port}`]) {
      const served = await post(JSON.stringify(bookingCall()), { origin });
      expect(served.status).toBe(200);
    }
  });
});

describe('request bodies', () => {
  it('refuses a body over the limit with 413, whether its length is declared or it streams', async () => {
    const tooLarge = JSON.stringify(bookingCall(MAX_BODY));
    const declared = await withoutRunning(() => post(tooLarge));
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.message).toMatch(/larger than 65536 bytes/);

    const streamed = await withoutRunning(() =>
      post(
        Readable.from(
          Array.from({ length: 20 }, (_, index) =>
            Buffer.from(tooLarge.slice(index * 5000, (index + 1) * 5000)),
          ),
        ),
      ),
    );
    expect(streamed.status).toBe(413);

    const fits = await post(JSON.stringify(bookingCall(MAX_BODY - 1024)));
    expect(fits.status).toBe(200);
    expect(fits.body).toContain('input_required');
  });

  it('answers invalid UTF-8 and invalid JSON with a parse error', async () => {
    const text = JSON.stringify(bookingCall()).replace('G-1', 'G-\u0001');
    const bytes = Buffer.from(text);
    bytes[bytes.indexOf(1)] = 0xff;
    const notUtf8 = await withoutRunning(() => post(bytes));
    expect(notUtf8.status).toBe(400);
    expect(JSON.parse(notUtf8.body).error).toEqual({
      code: -32700,
      message: 'Parse error: the request body is not valid UTF-8.',
    });

    const notJson = await withoutRunning(() => post('{"jsonrpc":"2.0","id":1,'));
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe(-32700);
  });
});

describe('2025 sessions', () => {
  let alice: HandshakeConnection;
  beforeAll(async () => {
    alice = await connectHandshake({ url: fixture.url, user: 'alice' }, { capabilities: {} });
  });
  afterAll(() => alice?.close());

  const sessionRequest = (user: string | undefined, method = 'POST') =>
    rawRequest(fixture.url, {
      method,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': alice.sessionId!,
        'mcp-protocol-version': '2025-11-25',
        ...(user !== undefined && { authorization: `Bearer ${user}` }),
      },
      ...(method === 'POST' && {
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'counters', arguments: {} },
        }),
      }),
    });

  it('answers 404 when another user (or nobody) presents a session id, and serves its owner', async () => {
    expect(alice.sessionId).toMatch(/.+/);
    for (const user of ['bob', undefined]) {
      for (const method of ['POST', 'GET', 'DELETE']) {
        const refused = await sessionRequest(user, method);
        expect(refused.status).toBe(404);
        expect(JSON.parse(refused.body).error.code).toBe(-32001);
      }
    }
    // Bob's DELETE did not end Alice's session.
    const served = await sessionRequest('alice');
    expect(served.status).toBe(200);
    expect(served.body).toContain('book_return');
  });
});
