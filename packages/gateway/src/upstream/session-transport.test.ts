import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isUnreachable } from './reachability.js';
import { SessionTransport, type SessionTransportOptions } from './session-transport.js';
import { UpstreamFetch } from './upstream-fetch.js';

// SessionTransport against a real node:http server on loopback that plays a 2025 Streamable HTTP
// upstream, well-behaved or not; each test sets how it answers. Both ways of sending: node:http
// directly (UpstreamFetch.request) and a fetch (the global one, as an OAuth session's would be).

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}
type Route = (seen: Seen, response: ServerResponse, request: IncomingMessage) => void;

let server: Server;
let base: string;
let other: Server;
let otherBase: string;
let route: Route = (_seen, response) => response.writeHead(500).end();
const seen: Seen[] = [];
const upstream = new UpstreamFetch();

function listen(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> {
  const created = createServer(handle);
  return new Promise((resolve) => created.listen(0, '127.0.0.1', () => resolve(created)));
}

beforeAll(async () => {
  server = await listen((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push(entry);
      route(entry, response, request);
    });
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  other = await listen((_request, response) => response.writeHead(200).end('{}'));
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  upstream.close();
  server.closeAllConnections();
  await Promise.all([server, other].map((s) => new Promise((resolve) => s.close(resolve))));
});

const open: SessionTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((transport) => transport.close()));
  seen.length = 0;
});

const request = (id: number, method = 'tools/call'): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method,
  params: {},
});
const answer = (id: number, text = 'done') => ({ jsonrpc: '2.0', id, result: { text } });
const event = (message: unknown, id?: string) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: message\ndata: ${JSON.stringify(message)}\n\n`;
const sse = (response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/event-stream' });
const json = (response: ServerResponse, message: unknown, headers: Record<string, string> = {}) =>
  response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(message));

const WAYS: [string, (options: SessionTransportOptions) => SessionTransportOptions][] = [
  ['node:http', (options) => ({ ...options, request: upstream.request })],
  ['a fetch', (options) => options],
];

describe.each(WAYS)('SessionTransport, sending on %s', (_way, via) => {
  async function transport(options: SessionTransportOptions = {}) {
    const made = new SessionTransport(new URL(base), via(options));
    const messages: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    made.onmessage = (message) => messages.push(message);
    made.onerror = (error) => errors.push(error);
    await made.start();
    open.push(made);
    return { transport: made, messages, errors };
  }

  /** A session the upstream opened (`initialize`), with `get` answering its GET stream. */
  async function session(get: Route, options: SessionTransportOptions = {}) {
    route = (entry, response, raw) => {
      const message = entry.body === '' ? undefined : JSON.parse(entry.body);
      if (entry.method === 'GET') return get(entry, response, raw);
      if (message?.method === 'initialize')
        return json(response, answer(message.id), { 'mcp-session-id': 'session-1' });
      if (message?.id === undefined || message.method === undefined) return response.writeHead(202).end();
      return routeCall(entry, response, raw);
    };
    const made = await transport(options);
    await made.transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} } as JSONRPCMessage);
    made.transport.setProtocolVersion('2025-11-25');
    await made.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await made.transport.standaloneOpened;
    return made;
  }
  let routeCall: Route = (_entry, response) => response.writeHead(500).end();
  const refuseGet: Route = (_entry, response) => response.writeHead(405).end();

  it('sends the configured headers, keeps the session and its revision, and reads a JSON answer', async () => {
    routeCall = (entry, response) => json(response, answer(JSON.parse(entry.body).id, 'json'));
    const {
      transport: sent,
      messages,
      errors,
    } = await session(refuseGet, {
      headers: { Authorization: 'Bearer upstream-secret' },
    });
    await sent.send(request(1));
    expect(messages.at(-1)).toEqual(answer(1, 'json'));
    const [initialize, initialized, get, call] = seen;
    expect(initialize!.headers['mcp-session-id']).toBeUndefined();
    expect(initialize!.headers.authorization).toBe('Bearer upstream-secret');
    expect(initialized!.headers).toMatchObject({
      'mcp-session-id': 'session-1',
      'mcp-protocol-version': '2025-11-25',
    });
    expect(get).toMatchObject({
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': 'session-1' },
    });
    expect(call!.headers).toMatchObject({
      authorization: 'Bearer upstream-secret',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 'session-1',
      'mcp-protocol-version': '2025-11-25',
    });
    expect(sent.sessionId).toBe('session-1');
    // The GET stream refused (405) is no error: the server has none.
    expect(errors).toEqual([]);
  });

  it('sends a 2026-07-28 request with the headers its body derives, and no session', async () => {
    route = (entry, response) => json(response, answer(JSON.parse(entry.body).id, 'modern'));
    const { transport: sent, messages, errors } = await transport({ headers: { 'X-Upstream': 'yes' } });
    const modern = (id: number, name: string): JSONRPCMessage => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    await sent.send(modern(1, 'survey'), { headers: { 'Mcp-Param-Region': 'eu', 'Mcp-Method': 'forged' } });
    await sent.send(modern(2, ' café '));
    await sent.send(request(3));
    expect(messages).toEqual([answer(1, 'modern'), answer(2, 'modern'), answer(3, 'modern')]);
    const [plain, encoded, legacy] = seen;
    expect(plain!.headers).toMatchObject({
      'x-upstream': 'yes',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'survey',
      'mcp-param-region': 'eu',
    });
    expect(plain!.headers['mcp-session-id']).toBeUndefined();
    // A name that is not plain visible ASCII goes as base64 of its UTF-8, as the server decodes it.
    expect(encoded!.headers['mcp-name']).toBe(`=?base64?${Buffer.from(' café ').toString('base64')}?=`);
    // A request that claims no revision (a 2025 session's) gets no 2026-07-28 header.
    expect(legacy!.headers['mcp-method']).toBeUndefined();
    expect(legacy!.headers['mcp-name']).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('delivers the JSON-RPC error of a 2026-07-28 refusal (400), and refuses a 400 that holds none', async () => {
    const refusal = (id: unknown) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32001, message: 'header mismatch' },
    });
    let body: (id: number) => unknown = (id) => refusal(id);
    route = (entry, response) =>
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify(body(JSON.parse(entry.body).id)));
    const { transport: sent, messages } = await transport();
    const meta = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    await sent.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', ...meta } });
    expect(messages).toEqual([refusal(1)]);
    // Another request's error, or none, is not this request's answer: the refusal is an HTTP error.
    body = (id) => refusal(id + 1);
    await expect(
      sent.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', ...meta } }),
    ).rejects.toThrow(/HTTP 400/);
    await expect(sent.send(request(3))).rejects.toThrow(/HTTP 400/);
    // A refusal's body is read up to 64 KB: a longer one is no answer either.
    body = (id) => ({ ...refusal(id), error: { code: -32001, message: 'x'.repeat(70_000) } });
    await expect(
      sent.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x', ...meta } }),
    ).rejects.toThrow(/HTTP 400/);
    expect(messages).toHaveLength(1);
  });

  it('reads a call’s event stream: the server’s requests and notifications, then the answer after them', async () => {
    routeCall = (entry, response) => {
      const id = JSON.parse(entry.body).id;
      sse(response);
      // All in one write: the answer must still reach the client after what came before it.
      response.end(
        event({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: id, progress: 1 },
        }) +
          event({ jsonrpc: '2.0', id: 'q1', method: 'elicitation/create', params: { message: 'Name?' } }) +
          event(answer(id)),
      );
    };
    const { transport: sent, messages } = await session(refuseGet);
    const order: string[] = [];
    sent.onmessage = (message) => {
      order.push('method' in message ? message.method : 'answer');
      if ('method' in message) queueMicrotask(() => order.push(`handled ${message.method}`));
    };
    await sent.send(request(2));
    expect(order).toEqual([
      'notifications/progress',
      'elicitation/create',
      'handled notifications/progress',
      'handled elicitation/create',
      'answer',
    ]);
    expect(messages).toHaveLength(1); // the initialize answer, before onmessage was replaced
  });

  it('opens the standalone GET stream after initialized, and hands on what the server sends there', async () => {
    routeCall = (entry, response) => json(response, answer(JSON.parse(entry.body).id));
    const { messages } = await session((_entry, response) => {
      sse(response);
      response.write(event({ jsonrpc: '2.0', id: 'q2', method: 'elicitation/create', params: {} }));
    });
    await expect.poll(() => messages.at(-1)).toMatchObject({ id: 'q2', method: 'elicitation/create' });
  });

  it('resumes a call’s stream that ended unanswered from its last event id, after the retry the server asked', async () => {
    let gets = 0;
    routeCall = (_entry, response) => {
      sse(response);
      // A priming event with an id, a short retry, then the server closes the stream (SEP-1699).
      response.end('id: e1\nretry: 20\ndata: \n\n');
    };
    const { transport: sent, messages } = await session((entry, response) => {
      gets++;
      if (entry.headers['last-event-id'] === undefined) return response.writeHead(405).end();
      sse(response);
      response.end(event(answer(3, 'resumed'), 'e2'));
    });
    await sent.send(request(3));
    expect(messages.at(-1)).toEqual(answer(3, 'resumed'));
    expect(gets).toBe(2);
    expect(seen.at(-1)!.headers).toMatchObject({ 'last-event-id': 'e1', 'mcp-session-id': 'session-1' });
  });

  it('fails a call at once when its stream ends unanswered with nothing to resume from', async () => {
    routeCall = (_entry, response) => {
      sse(response);
      response.end(event({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } }));
    };
    const { transport: sent } = await session(refuseGet);
    await expect(sent.send(request(4))).rejects.toThrow(
      /event stream for request 4 ended before its answer.*named no event to resume it from; the call cannot complete, call again/,
    );
  });

  it('fails a call whose upstream dies mid-stream with an error the gateway reads as unreachable', async () => {
    routeCall = (_entry, response, raw) => {
      sse(response);
      response.write(event({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } }));
      setTimeout(() => raw.socket.destroy(), 20);
    };
    const { transport: sent } = await session(refuseGet);
    const failure = await sent.send(request(5)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(isUnreachable(failure)).toBe(true);
  });

  it('refuses an event longer than the cap, and stops reading that stream', async () => {
    routeCall = (_entry, response) => {
      sse(response);
      response.write(`data: ${'x'.repeat(5_000)}`);
      response.write('x'.repeat(5_000)); // no end of line: it would be buffered forever
    };
    const { transport: sent } = await session(refuseGet, { maxMessageChars: 4_096 });
    await expect(sent.send(request(6))).rejects.toThrow(
      'the upstream sent an event of more than 4096 characters (the most the gateway reads of one message)',
    );
  });

  it('refuses a JSON answer longer than the cap', async () => {
    routeCall = (entry, response) => json(response, answer(JSON.parse(entry.body).id, 'y'.repeat(10_000)));
    const { transport: sent } = await session(refuseGet, { maxMessageChars: 4_096 });
    await expect(sent.send(request(7))).rejects.toThrow('a body of more than 4096 bytes');
  });

  it('drops a malformed event with an error and reads on; ignores other event types and comments', async () => {
    routeCall = (entry, response) => {
      const id = JSON.parse(entry.body).id;
      sse(response);
      response.end(
        ': a comment\n\nevent: message\ndata: {not json\n\nbogus-field: 1\n\nevent: other\ndata: {"jsonrpc":"2.0","id":99,"result":{}}\n\n' +
          'data: {"jsonrpc":"2.0","result":"no id"}\n\n' +
          event(answer(id, 'after')),
      );
    };
    const { transport: sent, messages, errors } = await session(refuseGet);
    await sent.send(request(8));
    expect(messages.at(-1)).toEqual(answer(8, 'after'));
    expect(messages.some((message) => 'id' in message && message.id === 99)).toBe(false);
    expect(errors.map((error) => error.message)).toEqual([
      'The upstream sent an event that is not a JSON-RPC message; it was dropped (SyntaxError)',
      'The upstream sent an event that is not a JSON-RPC message; it was dropped (ZodError)',
    ]);
  });

  it('refuses an answer of the wrong content type, naming what to check', async () => {
    routeCall = (_entry, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    const { transport: sent, errors } = await session(refuseGet);
    await expect(sent.send(request(9))).rejects.toThrow(
      'The upstream answered a request with content type "text/html"; an MCP server answers with application/json or text/event-stream, so check that the URL is its MCP endpoint.',
    );
    expect(errors).toHaveLength(1);
  });

  it('refuses a JSON answer that is not JSON-RPC, and a GET stream that is not an event stream', async () => {
    routeCall = (_entry, response) => json(response, { hello: 'world' });
    const { transport: sent, errors } = await session((_entry, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    );
    await expect(sent.send(request(10))).rejects.toThrow(/JSON body that is not a JSON-RPC message/);
    expect(errors[0]!.message).toMatch(
      /GET for its event stream with something other than text\/event-stream/,
    );
  });

  it('names the fix when the upstream refuses: credentials on 401, a lost session on 404', async () => {
    routeCall = (_entry, response) => response.writeHead(401, 'Unauthorized').end('no');
    const { transport: sent } = await session(refuseGet);
    await expect(sent.send(request(11))).rejects.toThrow(
      "The upstream refused to take a message with HTTP 401 Unauthorized; check the upstream's headers or oauth in the gateway's config.",
    );
    routeCall = (_entry, response) => response.writeHead(404).end();
    await expect(sent.send(request(12))).rejects.toThrow(/HTTP 404.*no longer knows this session/);
  });

  it('refuses a session id that is not visible ASCII', async () => {
    route = (_entry, response) => json(response, answer(0), { 'mcp-session-id': 'two words' });
    const { transport: sent } = await transport();
    await expect(
      sent.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} } as JSONRPCMessage),
    ).rejects.toThrow(/session id that is not 1 to 1,024 visible ASCII characters/);
    expect(sent.sessionId).toBeUndefined();
  });

  it('follows a redirect within the origin, and refuses one to another origin', async () => {
    route = (entry, response) => {
      if (entry.url === '/mcp') return response.writeHead(307, { location: '/mcp/' }).end();
      json(response, answer(JSON.parse(entry.body).id, 'moved'));
    };
    const { transport: sent, messages } = await transport();
    await sent.send(request(13));
    expect(messages.at(-1)).toEqual(answer(13, 'moved'));
    expect(seen.map((entry) => entry.url)).toEqual(['/mcp', '/mcp/']);
    route = (_entry, response) => response.writeHead(307, { location: `${otherBase}?token=secret` }).end();
    const refused = await sent.send(request(14)).catch((error: Error) => error.message);
    expect(refused).toMatch(
      /redirected POST to http:\/\/127\.0\.0\.1:\d+\/mcp, which the gateway does not follow/,
    );
    expect(refused).not.toContain('secret');
  });

  it('ends the session upstream with DELETE, and closes its open streams here', async () => {
    let getClosed = false;
    const { transport: sent } = await session((_entry, response, raw) => {
      sse(response);
      response.write(': open\n\n');
      raw.socket.once('close', () => {
        getClosed = true;
      });
    });
    route = (_entry, response) => response.writeHead(405).end();
    await sent.terminateSession();
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 'session-1' } });
    let closed = false;
    sent.onclose = () => {
      closed = true;
    };
    await sent.close();
    expect(closed).toBe(true);
    await expect.poll(() => getClosed).toBe(true);
  });
});
