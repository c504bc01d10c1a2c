import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createConnection, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpServerOptions, SERVER_HTTP_LIMITS } from './server-limits.js';

const CHUNK = Buffer.alloc(64 * 1024, 'a');
const FRAME = Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]);

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A listener with Parley's options whose handler refuses every body after its first chunk. */
async function refusingServer(limits: Partial<typeof SERVER_HTTP_LIMITS> = {}): Promise<number> {
  server = createServer(
    httpServerOptions({ ...SERVER_HTTP_LIMITS, ...limits }),
    (req: IncomingMessage, res: ServerResponse) => {
      if (req.method === 'GET') {
        res.end('hello');
        return;
      }
      req.once('data', () => {
        req.pause();
        res.writeHead(413, { 'content-type': 'text/plain' });
        res.end('too large');
      });
    },
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

interface Connection {
  readonly socket: Socket;
  /** Resolves with everything received once the answer's head and `bodyBytes` of body are in. */
  answer(bodyBytes: number): Promise<string>;
  /** Resolves when the server ends the connection: 'end' (a FIN) or the error code (a reset). */
  readonly ended: Promise<string>;
}

function connect(port: number, head: string): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let received = '';
    const waiters: (() => void)[] = [];
    socket.on('data', (data) => {
      received += data.toString('latin1');
      for (const wake of waiters.splice(0)) wake();
    });
    const ended = new Promise<string>((settle) => {
      socket.once('end', () => settle('end'));
      socket.once('error', (error: NodeJS.ErrnoException) => settle(error.code ?? 'error'));
    });
    const answer = (bodyBytes: number) =>
      new Promise<string>((settle) => {
        const check = () => {
          const split = received.indexOf('\r\n\r\n');
          if (split >= 0 && received.length - split - 4 >= bodyBytes) settle(received);
          else waiters.push(check);
        };
        check();
      });
    socket.once('connect', () => {
      socket.write(head);
      resolve({ socket, answer, ended });
    });
    socket.once('error', reject);
  });
}

const chunkedPost = 'POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n';

describe('the listener of httpServerOptions', () => {
  it('answers a refused body whole, with Connection: close, and keeps reading until the body ends', async () => {
    const port = await refusingServer();
    const client = await connect(port, chunkedPost);
    client.socket.write(FRAME);
    const answer = await client.answer('too large'.length);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    // 4 MiB more after the answer: Node's own response would have reset the connection by now.
    for (let i = 0; i < 64; i++) client.socket.write(FRAME);
    client.socket.write('0\r\n\r\n');
    expect(await client.ended).toBe('end');
    client.socket.destroy();
  });

  it('closes when the client closes, without waiting out the lingering time', async () => {
    const port = await refusingServer({ lingerMs: 120_000 });
    const client = await connect(port, chunkedPost);
    client.socket.write(FRAME);
    await client.answer('too large'.length);
    const closed = new Promise((resolve) => server!.once('close', resolve));
    server!.close();
    client.socket.end();
    // server.close() resolves only once no connection is left open.
    await closed;
  });

  it('stops reading past lingerBytes and closes after lingerMs, whatever the client keeps sending', async () => {
    const port = await refusingServer({ lingerMs: 300, lingerBytes: 256 * 1024 });
    const client = await connect(port, chunkedPost);
    let writing = true;
    void (async () => {
      while (writing && !client.socket.destroyed) {
        if (!client.socket.write(FRAME)) await new Promise((resolve) => client.socket.once('drain', resolve));
      }
    })().catch(() => {});
    expect(await client.answer('too large'.length)).toMatch(/^HTTP\/1\.1 413 /);
    expect(await client.ended).toMatch(/^(end|ECONNRESET|EPIPE)$/);
    writing = false;
    client.socket.destroy();
  });

  it('keeps a connection alive when no body was refused (a GET answered at once)', async () => {
    const port = await refusingServer();
    const client = await connect(port, 'GET / HTTP/1.1\r\nhost: x\r\n\r\n');
    const answer = await client.answer('hello'.length);
    expect(answer.toLowerCase()).toContain('connection: keep-alive');
    client.socket.destroy();
  });
});
