// Issue 15, finding 8: slow request bodies were held for up to 300 s (Node's default) and the
// demo's listener took any number of connections.
import { connectionsReach, openIdleConnections, sendSlowBody } from '@parley/testing';
import { afterEach, expect, it } from 'vitest';
import { type Served, serveOnLoopback } from './serve-http.js';
import { readForm } from './web/read-form.js';

const site = {
  async fetch(request: Request) {
    const form = await readForm(request);
    return form instanceof Response ? form : new Response(`hello ${form.get('name')}`);
  },
  close: async () => {},
};
let served: Served | undefined;
afterEach(() => served?.close());

it('cuts off a body trickled a byte at a time at the request timeout', async () => {
  served = await serveOnLoopback(0, () => site, {
    headersTimeoutMs: 500,
    requestTimeoutMs: 1000,
    maxConnections: 10,
  });
  const outcome = await sendSlowBody({
    url: `${served.origin}/signin`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  // The client trickles for up to 20 s: a 408 means the server cut it off first (Node's default: 300 s).
  expect(outcome.status).toBe(408);
  const ok = await fetch(`${served.origin}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=alice',
  });
  expect(await ok.text()).toBe('hello alice');
});

it('drops connections past the cap, and takes new ones once others close', async () => {
  served = await serveOnLoopback(0, () => site, {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 10_000,
    maxConnections: 3,
  });
  const idle = await openIdleConnections(served.origin, 3);
  await connectionsReach(served.http, 3);
  await expect(fetch(`${served.origin}/`)).rejects.toThrow();
  for (const socket of idle) socket.destroy();
  await connectionsReach(served.http, 0);
  expect((await fetch(`${served.origin}/`, { method: 'POST' })).status).toBe(415);
});
