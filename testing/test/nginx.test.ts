// startNginx runs a real nginx: round-robin over the replicas in order, each response naming its
// replica in X-Upstream, a dead replica routed around, and (with streamed bodies) a request cut off
// inside a replica answered 502 naming it.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Nginx, startNginx } from '../src/index.js';

const replicas: { port: number; server: Server }[] = [];
let nginx: Nginx;

/** A replica on a port of its own (listening on port 0: no port to race for). */
async function replica(): Promise<{ port: number; server: Server }> {
  let port = 0;
  const server = createServer((req, res) => {
    // Reads the whole body before answering, like a JSON endpoint.
    req.resume();
    req.on('end', () => res.end(`replica ${port}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return { port, server };
}

beforeAll(async () => {
  for (let i = 0; i < 3; i++) replicas.push(await replica());
  nginx = await startNginx({ upstreamPorts: replicas.map((r) => r.port), streamRequestBodies: true });
});
afterAll(async () => {
  await nginx?.stop();
  for (const { server } of replicas) {
    server.closeAllConnections();
    server.close();
  }
});

async function post(): Promise<{ status: number; upstream: string | null; body: string }> {
  const response = await fetch(`${nginx.url}/mcp`, { method: 'POST', body: '{}' });
  return {
    status: response.status,
    upstream: response.headers.get('x-upstream'),
    body: await response.text(),
  };
}

describe('startNginx', () => {
  it('sends requests round-robin in configuration order and names the replica of each', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await post();
      expect(reply.body).toBe(`replica ${reply.upstream?.split(':')[1]}`);
      seen.push(reply.upstream!);
    }
    const [a, b, c] = replicas.map((r) => `127.0.0.1:${r.port}`);
    const start = seen.indexOf(a!);
    expect([...seen.slice(start), ...seen.slice(0, start)]).toEqual([a, b, c, a, b, c]);
  });

  it('answers 502 naming the replica when a request is cut off inside it', async () => {
    // A request whose body never finishes, sent while the next replica is predicted: kill that replica mid-request.
    const status = await new Promise<{ status: number; upstream: string | undefined }>((resolve, reject) => {
      const req = request(
        `${nginx.url}/mcp`,
        { method: 'POST', headers: { 'content-length': '10' } },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, upstream: res.headers['x-upstream'] as string }),
          );
        },
      );
      req.on('error', reject);
      req.write('12345');
      // Once the request reached a replica (not after a guess at how long that takes).
      const reached = () => {
        for (const { server } of replicas) server.off('request', reached);
        for (const { server } of replicas) server.closeAllConnections();
      };
      for (const { server } of replicas) server.on('request', reached);
    });
    expect(status.status).toBe(502);
    expect(replicas.map((r) => `127.0.0.1:${r.port}`)).toContain(status.upstream);
  });

  it('routes around a replica that is down, without an error', async () => {
    const down = replicas[1]!;
    down.server.closeAllConnections();
    await new Promise<void>((resolve) => down.server.close(() => resolve()));
    for (let i = 0; i < 6; i++) {
      const reply = await post();
      expect(reply.status).toBe(200);
      expect(reply.body).not.toBe(`replica ${down.port}`);
    }
    expect(nginx.errorLog()).toMatch(/Connection refused/);
  });
});

describe('startNginx with sessionPrefixes', () => {
  it("sends a session's requests to the replica its id names, and the rest round-robin", async () => {
    const backends = [await replica(), await replica()];
    const sticky = await startNginx({
      upstreamPorts: backends.map((backend) => backend.port),
      sessionPrefixes: ['r1', 'r2'],
    });
    try {
      const send = async (sessionId?: string) =>
        (
          await fetch(`${sticky.url}/mcp`, {
            method: 'POST',
            body: '{}',
            headers: sessionId === undefined ? {} : { 'mcp-session-id': sessionId },
          })
        ).text();
      const [one, two] = backends.map((backend) => `replica ${backend.port}`);
      for (let i = 0; i < 4; i++) {
        expect(await send(`r2.${crypto.randomUUID()}`)).toBe(two);
        expect(await send(`r1.${crypto.randomUUID()}`)).toBe(one);
      }
      const spread = new Set(await Promise.all([send(), send(), send(), send()]));
      expect(spread).toEqual(new Set([one, two]));
      // An id naming no replica is not refused by the balancer: the replica answers 404 itself.
      expect([one, two]).toContain(await send('nobody.123'));
    } finally {
      await sticky.stop();
      for (const { server } of backends) {
        server.closeAllConnections();
        server.close();
      }
    }
  });
});
