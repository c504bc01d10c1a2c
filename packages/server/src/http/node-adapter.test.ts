// Event streams on real node:http responses over loopback, to clients that read steadily, slowly or
// not at all: what NodeOutlet does about a client that stops reading (issue 24, finding 6).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOutlet, HttpExchange } from './http-exchange.js';
import { nodeExchange, nodeResponder } from './node-adapter.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server whose one response is an event stream with these limits; resolves with it once a client asked. */
async function streamTo(
  limits: { writeTimeoutMs: number; maxQueuedBytes: number },
  reading: 'never' | 'steadily',
): Promise<{ outlet: EventOutlet; res: ServerResponse; client: Socket; closed: Promise<number> }> {
  let answer!: (value: { outlet: EventOutlet; res: ServerResponse }) => void;
  const asked = new Promise<{ outlet: EventOutlet; res: ServerResponse }>((resolve) => {
    answer = resolve;
  });
  const server = createServer((_req, res) =>
    answer({ outlet: nodeResponder(res, limits).eventStream({}), res }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  sockets.push(client);
  client.on('error', () => {});
  client.write('GET / HTTP/1.1\r\nhost: x\r\n\r\n');
  if (reading === 'never') client.pause();
  else {
    // A slow but steady reader: 64 KiB every 50 ms.
    client.pause();
    const pace = setInterval(() => {
      while (client.read(64 * 1024) !== null) {}
    }, 50);
    client.once('close', () => clearInterval(pace));
  }
  const { outlet, res } = await asked;
  const started = Date.now();
  const closed = new Promise<number>((resolve) => res.once('close', () => resolve(Date.now() - started)));
  return { outlet, res, client, closed };
}

/** Writes frames of 64 KiB until the response stops taking them. */
function fill(outlet: EventOutlet): void {
  const frame = `data: ${'x'.repeat(64 * 1024)}\n\n`;
  for (let i = 0; i < 1000 && outlet.write(frame); i++) {}
}

describe('an event stream to a client that stops reading', () => {
  it('is dropped once nothing queued went out for writeTimeoutMs', async () => {
    const { outlet, res, closed } = await streamTo(
      { writeTimeoutMs: 300, maxQueuedBytes: 1024 ** 3 },
      'never',
    );
    // A live stream: 64 KiB every 20 ms, until the kernel's buffers are full and nothing moves.
    const frame = `data: ${'x'.repeat(64 * 1024)}\n\n`;
    const live = setInterval(() => outlet.write(frame), 20);
    const after = await closed;
    clearInterval(live);
    expect(res.destroyed).toBe(true);
    expect(after).toBeLessThan(15_000);
    expect(await outlet.drained()).toBe(false);
    expect(outlet.write(frame)).toBe(false);
  });

  it('is dropped at once when more than maxQueuedBytes piles up behind it', async () => {
    const { outlet, res } = await streamTo({ writeTimeoutMs: 60_000, maxQueuedBytes: 256 * 1024 }, 'never');
    fill(outlet);
    const frame = `data: ${'y'.repeat(64 * 1024)}\n\n`;
    let writes = 0;
    while (!res.destroyed && writes < 100) {
      outlet.write(frame);
      writes++;
    }
    expect(res.destroyed).toBe(true);
    expect(writes).toBeLessThanOrEqual(5);
  });
});

describe('an event stream to a slow but steady reader', () => {
  it('stays open while what is queued keeps going out, and drained() says when it all went', async () => {
    const { outlet, res } = await streamTo({ writeTimeoutMs: 300, maxQueuedBytes: 1024 ** 3 }, 'steadily');
    fill(outlet);
    expect(await outlet.drained()).toBe(true);
    fill(outlet);
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(res.destroyed).toBe(false);
    outlet.end();
  });
});

describe('a node:http request as an exchange', () => {
  /** Serves one POST over loopback; resolves with what the exchange said about it. */
  async function exchangeOf(path: string, body: string) {
    let seen!: (value: { exchange: HttpExchange; url: string; read: string }) => void;
    const served = new Promise<{ exchange: HttpExchange; url: string; read: string }>((resolve) => {
      seen = resolve;
    });
    const server = createServer(async (req, res) => {
      const exchange = nodeExchange(req, res, 'http://example.test:8080');
      const read = await exchange.readBody(1024);
      res.end();
      seen({ exchange, url: exchange.url, read: read.ok ? Buffer.from(read.bytes).toString() : 'refused' });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    sockets.push(client);
    client.on('error', () => {});
    client.write(
      `POST ${path} HTTP/1.1\r\nhost: x\r\nx-two: a\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
    return served;
  }

  it('gives the URL, method, headers and body', async () => {
    const { exchange, url, read } = await exchangeOf('/mcp?x=1', '{"a":1}');
    expect(url).toBe('http://example.test:8080/mcp?x=1');
    expect(exchange.method).toBe('POST');
    expect(exchange.header('x-two')).toBe('a');
    expect(exchange.header('absent')).toBeUndefined();
    expect(exchange.remoteAddress).toBe('127.0.0.1');
    expect(read).toBe('{"a":1}');
  });

  it('has no accessor of its own (one per request would keep the request alive past young collections)', async () => {
    const { exchange } = await exchangeOf('/mcp', '');
    for (const key of Reflect.ownKeys(exchange)) {
      const descriptor = Object.getOwnPropertyDescriptor(exchange, key)!;
      expect({ key, accessor: 'get' in descriptor || 'set' in descriptor }).toEqual({ key, accessor: false });
    }
  });
});
