// Issue 15, findings 2 and 8: Parley's own listener reads every body through the one capped reader
// (413 past the cap, chunked or not, and the 413 reaches the client), cuts off slow bodies at the
// request timeout (Node's default held them 300 s) and caps its connections.
// Issue 29: the 413 reaches the client every time. Node's response closed the connection at once
// with the flood unread, and the reset could beat the answer (no status, EPIPE); the listener now
// lingers (answers, then reads the rest to nothing for a while) before it closes.
import { createServer, type Listening } from '@parley/server';
import {
  connectionsReach,
  howRefused,
  openIdleConnections,
  peakResidentMiB,
  residentMiB,
  sendChunkedFlood,
  sendSlowBody,
  socketBufferBytes,
} from '@parley/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';
import { httpWire } from './wire/http-wire.js';

const FLOOD = 200 * 1024 * 1024;
let listening: Listening | undefined;
afterEach(() => listening?.close());

function quietServer() {
  const server = createServer({ name: 'limits', version: '1.0.0', log: () => {} });
  server.tool('ping', { description: 'Answers pong.' }, () => 'pong');
  return server;
}

describe('a 200 MiB chunked body, on a server process', () => {
  const ENDPOINT_CAP = 64 * 1024;
  // listen()'s pages read at most 64 KiB.
  const PAGE_CAP = 64 * 1024;
  let fixture: HttpFixture;
  let before: number;
  beforeAll(async () => {
    fixture = await startHttpFixture({ PARLEY_FIXTURE_MAX_BODY_BYTES: String(ENDPOINT_CAP) });
    before = residentMiB(fixture.pid);
  });
  afterAll(() => fixture.stop());

  const listTools = async () => (await httpWire(fixture.url).request('tools/list', {})).status;

  for (const [where, cap] of [
    ['endpoint', ENDPOINT_CAP],
    ['pages', PAGE_CAP],
  ] as const) {
    it(`is refused 413 on the ${where}, the client reads why, and the server holds none of it`, async () => {
      const url = where === 'endpoint' ? fixture.url : `${new URL(fixture.url).origin}/any-page`;
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const [outcome, servedMeanwhile] = await Promise.all([
        sendChunkedFlood({ url, headers }, FLOOD),
        listTools(),
      ]);
      // The client reads the 413 (or, had it kept sending past the cap, was reset).
      expect(howRefused(outcome, cap)).toMatch(/^(413|reset past the cap)$/);
      // The server stopped taking the body at the cap: no further than the sockets between them hold.
      expect(outcome.bytesSent).toBeLessThan(cap + socketBufferBytes());
      // Its memory stays flat.
      expect(peakResidentMiB(fixture.pid) - before).toBeLessThan(100);
      // It keeps serving others, during the flood and after it.
      expect(servedMeanwhile).toBe(200);
      expect(await listTools()).toBe(200);
    });
  }
});

it('cuts off a slow body at the request timeout and keeps serving', async () => {
  listening = await quietServer().listen({
    limits: { headersTimeoutMs: 500, requestTimeoutMs: 1000 },
  });
  // The client trickles for up to 20 s: a 408 means the server cut it off first (Node's default: 300 s).
  const outcome = await sendSlowBody({ url: listening.url, headers: { 'content-type': 'application/json' } });
  expect(outcome.status).toBe(408);
  expect((await fetch(listening.url, { method: 'POST' })).status).toBe(415);
});

it('drops connections past the cap, and takes new ones once others close', async () => {
  listening = await quietServer().listen({ limits: { maxConnections: 4 } });
  const idle = await openIdleConnections(listening.url, 4);
  await connectionsReach(listening.http, 4);
  await expect(fetch(listening.url, { method: 'POST' })).rejects.toThrow();
  for (const socket of idle) socket.destroy();
  await connectionsReach(listening.http, 0);
  expect((await fetch(listening.url, { method: 'POST' })).status).toBe(415);
});

it('refuses limits that cannot work, naming the fix', async () => {
  await expect(
    quietServer().listen({ limits: { headersTimeoutMs: 5000, requestTimeoutMs: 1000 } }),
  ).rejects.toThrow(/headersTimeoutMs \(5000\) must be positive and at most requestTimeoutMs/);
});
