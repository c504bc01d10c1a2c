// readNodeBody on real node:http requests over loopback: whole bodies, bodies in many chunks,
// bodies over the cap (declared or not), and clients that leave half-way.
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type { CappedBody } from '@parley/core/node';
import { afterEach, describe, expect, it } from 'vitest';
import { readNodeBody } from './node-body.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** A server that reads each request's body with `maxBytes` and hands the result (and request) out. */
async function reader(
  maxBytes: number,
): Promise<{ port: number; next: () => Promise<[CappedBody, IncomingMessage]> }> {
  const waiting: ((value: [CappedBody, IncomingMessage]) => void)[] = [];
  const server = createServer(async (req, res) => {
    const read = await readNodeBody(req, maxBytes);
    waiting.shift()?.([read, req]);
    res.writeHead(read.ok ? 200 : 413, { connection: 'close' }).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    next: () => new Promise((resolve) => waiting.push(resolve)),
  };
}

function post(port: number, chunks: readonly string[], headers: Record<string, string> = {}): void {
  const sent = request({ port, host: '127.0.0.1', method: 'POST', headers });
  sent.on('error', () => {});
  sent.on('response', (response) => response.resume());
  for (const chunk of chunks) sent.write(chunk);
  sent.end();
}

const text = (read: CappedBody) => (read.ok ? Buffer.from(read.bytes).toString('utf8') : read.reason);

describe('readNodeBody', () => {
  it('reads a body sent whole, with its Content-Length', async () => {
    const { port, next } = await reader(1024);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const read = next();
    post(port, [body], { 'content-length': String(Buffer.byteLength(body)) });
    expect(text((await read)[0])).toBe(body);
  });

  it('reads a chunked body sent in many pieces, in order', async () => {
    const { port, next } = await reader(1024);
    const pieces = Array.from({ length: 20 }, (_, index) => `piece ${index};`);
    const read = next();
    post(port, pieces);
    expect(text((await read)[0])).toBe(pieces.join(''));
  });

  it('reads an empty body', async () => {
    const { port, next } = await reader(1024);
    const read = next();
    post(port, [], { 'content-length': '0' });
    expect(text((await read)[0])).toBe('');
  });

  it('refuses a declared Content-Length over the cap without reading it', async () => {
    const { port, next } = await reader(100);
    const read = next();
    const client = connect(port, '127.0.0.1');
    client.on('error', () => {});
    client.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 101\r\n\r\n');
    const [result, req] = await read;
    expect(result).toMatchObject({ ok: false, reason: 'too-large' });
    // Nothing of the body was read: none had been sent.
    expect(req.complete).toBe(false);
    client.destroy();
  });

  it('refuses a chunked body as soon as it grows past the cap, and leaves the request paused', async () => {
    const { port, next } = await reader(1000);
    const read = next();
    post(
      port,
      Array.from({ length: 50 }, () => 'x'.repeat(100)),
    );
    const [result, req] = await read;
    expect(result).toMatchObject({ ok: false, reason: 'too-large' });
    expect(req.isPaused()).toBe(true);
    expect(req.listenerCount('data')).toBe(0);
  });

  it('says the body was unreadable when the client leaves before it ended', async () => {
    const { port, next } = await reader(1024);
    const read = next();
    const client = connect(port, '127.0.0.1');
    client.on('error', () => {});
    client.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 50\r\n\r\nhalf of it');
    setTimeout(() => client.destroy(), 50);
    const [result, req] = await read;
    expect(result).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(req.listenerCount('data') + req.listenerCount('end')).toBe(0);
  });
});
