import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamFetch } from './upstream-fetch.js';

// UpstreamFetch against a real node:http server on loopback, as the SDK's transport uses a fetch.
let server: Server;
let base: string;
const seen: { method?: string; headers: IncomingMessage['headers']; body: string }[] = [];
const upstream = new UpstreamFetch();

function route(request: IncomingMessage, response: ServerResponse, body: string): void {
  seen.push({ ...(request.method && { method: request.method }), headers: request.headers, body });
  switch (request.url) {
    case '/json':
      response.writeHead(200, { 'content-type': 'application/json', 'x-twice': ['a', 'b'] });
      response.end(JSON.stringify({ echoed: body }));
      return;
    case '/accepted':
      response.writeHead(202).end();
      return;
    case '/none':
      response.writeHead(204).end();
      return;
    case '/moved':
      response.writeHead(302, { location: '/json' }).end();
      return;
    case '/events':
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
      // The rest only when the client asks (after it read the first event).
      server.once('request', () => response.end('data: last\n\n'));
      return;
    default:
      response.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => route(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.close();
  await new Promise((resolve) => server.close(resolve));
});

const manual = (init: RequestInit = {}): RequestInit => ({ ...init, redirect: 'manual' });

describe('UpstreamFetch', () => {
  it('sends the transport’s request as given and answers with status, every header and the body', async () => {
    const response = await upstream.fetch(
      `${base}/json`,
      manual({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-session-id': 's1' },
        body: '{"a":1}',
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-twice')).toBe('a, b');
    expect(await response.json()).toEqual({ echoed: '{"a":1}' });
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      headers: { 'mcp-session-id': 's1', 'content-length': '7' },
      body: '{"a":1}',
    });
  });

  it('hands an event stream on as it comes', async () => {
    const response = await upstream.fetch(
      `${base}/events`,
      manual({ headers: { accept: 'text/event-stream' } }),
    );
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe('data: first\n\n');
    await fetch(`${base}/nothing`);
    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += read.value;
    expect(rest).toBe('data: last\n\n');
  });

  it('answers an empty response, and leaves redirects to the transport', async () => {
    const accepted = await upstream.fetch(`${base}/accepted`, manual({ method: 'POST', body: '{}' }));
    expect([accepted.status, await accepted.text()]).toEqual([202, '']);
    const none = await upstream.fetch(`${base}/none`, manual({ method: 'DELETE' }));
    expect([none.status, none.body]).toEqual([204, null]);
    const moved = await upstream.fetch(`${base}/moved`, manual());
    expect([moved.status, moved.headers.get('location')]).toEqual([302, '/json']);
    // Not the transport's request (an OAuth grant's, say): the global fetch, which follows it.
    const followed = await upstream.fetch(`${base}/moved`);
    expect(followed.status).toBe(200);
  });

  it('sends a request again on another connection when the kept one was closed under it, and only then', async () => {
    // Answers the first request of each connection; closes the connection on a second, unread, as a
    // server whose keep-alive ran out does (a fresh connection closed so is not sent on again).
    const served = new WeakMap<object, number>();
    let requests = 0;
    const closing = createServer((request, response) => {
      requests++;
      const count = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, count);
      if (count > 1 || request.url === '/never') request.socket.destroy();
      else response.end('ok');
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(closing.address() as AddressInfo).port}`;
    const kept = new UpstreamFetch();
    try {
      expect(await (await kept.fetch(`${at}/a`, manual({ method: 'POST', body: '1' }))).text()).toBe('ok');
      expect(await (await kept.fetch(`${at}/b`, manual({ method: 'POST', body: '2' }))).text()).toBe('ok');
      expect(requests).toBe(3);
      const never = kept.fetch(`${at}/never`, manual({ method: 'POST', body: '3' }));
      await expect(never).rejects.toMatchObject({ message: 'fetch failed' });
      // On the kept connection, then once on a fresh one, which failing so is final.
      expect(requests).toBe(5);
    } finally {
      kept.close();
      await new Promise((resolve) => closing.close(resolve));
    }
  });

  it('fails as the global fetch fails: an abort as an abort, a refused connection as fetch failed', async () => {
    const aborted = upstream.fetch(`${base}/json`, manual({ signal: AbortSignal.abort() }));
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    const closed = new UpstreamFetch();
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const refused = closed.fetch(`http://127.0.0.1:${port}/mcp`, manual());
    await expect(refused).rejects.toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
    closed.close();
  });

  it('sends the transport’s own GET on a connection of its own, and its other requests on the pool', async () => {
    const stream = await upstream.request(new URL(`${base}/events`), {
      method: 'GET',
      headers: { accept: 'text/event-stream' },
    });
    expect(seen.at(-1)!.headers.connection).toBe('close');
    stream.destroy();
    const posted = await upstream.request(new URL(`${base}/json`), {
      method: 'POST',
      headers: {},
      body: '{}',
    });
    posted.resume();
    expect(seen.at(-1)!.headers.connection).toBe('keep-alive');
  });

  it('makes that connection over TLS as the https agent would: the host name sent, the certificate checked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const names: string[] = [];
    const tls = createTlsServer({
      key: readFileSync(join(dir, 'key.pem')),
      cert: readFileSync(join(dir, 'cert.pem')),
      SNICallback: (name, done) => {
        names.push(name);
        done(null);
      },
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const port = (tls.address() as AddressInfo).port;
    try {
      // A self-signed certificate is refused: the check is on, and the request went to this port.
      const refused = upstream.request(new URL(`https://localhost:${port}/mcp`), {
        method: 'GET',
        headers: {},
      });
      await expect(refused).rejects.toMatchObject({ cause: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } });
      expect(names).toEqual(['localhost']);
    } finally {
      await new Promise((resolve) => tls.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
