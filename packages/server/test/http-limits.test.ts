// Issue 15, findings 2 and 8: Parley's own listener reads every body through the one capped reader
// (413 past the cap, chunked or not, and the 413 reaches the client), cuts off slow bodies at the
// request timeout (Node's default held them 300 s) and caps its connections.
import { createServer, type Listening } from '@parley/server';
import { openIdleConnections, residentMiB, sendChunkedFlood, sendSlowBody } from '@parley/testing';
import { afterEach, expect, it } from 'vitest';

const FLOOD = 200 * 1024 * 1024;
let listening: Listening | undefined;
afterEach(() => listening?.close());

function quietServer() {
  const server = createServer({ name: 'limits', version: '1.0.0', log: () => {} });
  server.tool('ping', { description: 'Answers pong.' }, () => 'pong');
  return server;
}

it('answers a 200 MiB chunked body 413 on the endpoint and on the pages, holding none of it', async () => {
  listening = await quietServer().listen({ maxBodyBytes: 64 * 1024 });
  const origin = new URL(listening.url).origin;
  const before = residentMiB(process.pid);
  for (const url of [listening.url, `${origin}/any-page`]) {
    const outcome = await sendChunkedFlood(
      { url, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      FLOOD,
    );
    expect(outcome.status, url).toBe(413);
    expect(outcome.bytesSent, url).toBeLessThan(FLOOD / 2);
  }
  expect(residentMiB(process.pid) - before).toBeLessThan(100);
});

it('cuts off a slow body at the request timeout and keeps serving', async () => {
  listening = await quietServer().listen({
    limits: { headersTimeoutMs: 500, requestTimeoutMs: 1000 },
  });
  const outcome = await sendSlowBody({ url: listening.url, headers: { 'content-type': 'application/json' } });
  expect(outcome.status).toBe(408);
  expect(outcome.ms).toBeLessThan(3000);
});

it('drops connections past the cap', async () => {
  listening = await quietServer().listen({ limits: { maxConnections: 4 } });
  const idle = await openIdleConnections(listening.url, 4);
  await expect(fetch(listening.url, { method: 'POST' })).rejects.toThrow();
  for (const socket of idle) socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect((await fetch(listening.url, { method: 'POST' })).status).toBe(415);
});

it('refuses limits that cannot work, naming the fix', async () => {
  await expect(
    quietServer().listen({ limits: { headersTimeoutMs: 5000, requestTimeoutMs: 1000 } }),
  ).rejects.toThrow(/headersTimeoutMs \(5000\) must be positive and at most requestTimeoutMs/);
});
