import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenUse } from '../token-use.js';
import { BalancerChannel } from './channel.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A loopback server that answers each request only when the test lets it. */
async function heldServer() {
  const waiting: ServerResponse[] = [];
  const arrived: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    arrived.push(String(request.headers.authorization));
    request.resume();
    request.on('end', () => waiting.push(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    arrived,
    async answerNext() {
      while (waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      waiting
        .shift()!
        .writeHead(200, { 'x-upstream': `127.0.0.1:${port}` })
        .end('{}');
    },
  };
}

describe('BalancerChannel with a TokenUse', () => {
  it("counts a request's bearer token until its reply is back, so a graceful stop can wait for it", async () => {
    const server = await heldServer();
    const tokenUse = new TokenUse();
    const channel = new BalancerChannel(server.origin, ['a', 'b'], tokenUse);
    const reply = channel.send({
      method: 'POST',
      path: '/mcp',
      headers: { authorization: 'Bearer old' },
      body: '{}',
    });
    await expect.poll(() => server.arrived).toEqual(['Bearer old']);

    // The request is inside the server: a stop that revokes `old` must not go ahead yet.
    expect(await tokenUse.drained(['Bearer old'], 50)).toBe(false);
    expect(await tokenUse.drained(['Bearer other'], 50)).toBe(true);

    await server.answerNext();
    expect((await reply).status).toBe(200);
    expect(await tokenUse.drained(['Bearer old'], 50)).toBe(true);
  });

  it('releases the token of a request that got no response', async () => {
    const tokenUse = new TokenUse();
    // Nothing listens on port 9 of loopback: the connection is refused.
    const channel = new BalancerChannel('http://127.0.0.1:9', ['a', 'b'], tokenUse);
    const reply = await channel.send({ method: 'GET', path: '/', headers: { authorization: 'Bearer gone' } });
    expect(reply.status).toBe(0);
    expect(await tokenUse.drained(['Bearer gone'], 50)).toBe(true);
  });
});
