// Issue 15, finding 4: under @hono/node-server (the adapter Brightgrid serves with) a flow page's
// Content-Length was written into the headers object every page shared, so after one 404 the 403
// "this link is for another account" page was cut short and its end read as the next response.
import { messagePage } from '@parley/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Served, serveOnLoopback } from './serve-http.js';

const WARNING =
  'The link was created for a different account than the one signed in here, so nothing was done. If someone sent you this link, do not use it.';
let served: Served;

beforeAll(async () => {
  served = await serveOnLoopback(0, () => ({
    async fetch(request) {
      return new URL(request.url).pathname === '/missing'
        ? messagePage(404, 'Not found', 'No such link.')
        : messagePage(403, 'This link is for another account', WARNING);
    },
    close: async () => {},
  }));
});
afterAll(() => served.close());

it('gives each page its own Content-Length: a 404 then a 403 on one keep-alive connection', async () => {
  for (const [path, status] of [
    ['/missing', 404],
    ['/other-account', 403],
    ['/missing', 404],
    ['/other-account', 403],
  ] as const) {
    const response = await fetch(`${served.origin}${path}`);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(response.status).toBe(status);
    expect(Number(response.headers.get('content-length'))).toBe(body.byteLength);
    const text = new TextDecoder().decode(body);
    expect(text.endsWith('</html>')).toBe(true);
    if (status === 403) expect(text).toContain('If someone sent you this link, do not use it.');
  }
});
