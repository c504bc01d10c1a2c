import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  classifyInboundRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  Server,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { PROTOCOL_VERSION, questionCount, TOOL } from '../survey.js';
import { answeredAfter, surveyResult } from './floor.js';
import { reply as replyJson } from './json-floor.js';
import { onBody, type RunningHttp, serveOnLoopback } from './loopback.js';
import { answerSideChannel } from './side-channel.js';

/**
 * The SDK floor: the JSON floor's survey (same results, same unsealed state scheme, no answer
 * checks), but every request goes through what the official SDK does when it serves a 2026-07-28
 * round: its inbound ladder (`classifyInboundRequest`), then one long-lived modern-era SDK `Server`
 * (`serveStdio` over an in-process transport, as Parley serves HTTP) whose `tools/call` handler
 * only builds the result. No host or origin check, no sealing, no middleware.
 *
 * It is the most any server can reach while the SDK serves its rounds: what it costs above the
 * JSON floor is the SDK's own share of a round.
 */

type Reply = (status: number, message: unknown) => void;

/** Carries each HTTP request into the one SDK server and its response back (ids renumbered: clients' collide). */
class LoopTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #waiting = new Map<number, { readonly id: JSONRPCRequest['id']; readonly reply: Reply }>();
  #nextId = 0;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || !('result' in message || 'error' in message)) return;
    const waiting = this.#waiting.get(message.id as number);
    if (!waiting) return;
    this.#waiting.delete(message.id as number);
    waiting.reply(200, { ...message, id: waiting.id });
  }

  exchange(message: JSONRPCRequest, reply: Reply): void {
    const id = ++this.#nextId;
    this.#waiting.set(id, { id: message.id, reply });
    this.onmessage?.({ ...message, id });
  }
}

function surveyServer(): Server {
  const server = new Server({ name: 'bench-sdk-floor', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', (request, ctx) => {
    const count = questionCount(request.params.arguments);
    // Without a verify hook the SDK hands over the raw wire string, as the floors read it.
    const answered = answeredAfter(ctx.mcpReq.requestState());
    if (request.params.name !== TOOL || count === undefined || answered === undefined || answered > count)
      throw new Error('Invalid params');
    return surveyResult(count, answered) as never;
  });
  return server;
}

function replyTo(res: ServerResponse): Reply {
  return (status, message) => replyJson(res, status, message);
}

/** Serves the SDK floor on loopback HTTP. */
export async function listenSdkFloor(): Promise<RunningHttp> {
  const transport = new LoopTransport();
  const serving = serveStdio(() => surveyServer(), { legacy: 'reject', transport });
  // Pin the connection to the modern era, as Parley does, with a request carrying a valid envelope.
  await new Promise<void>((resolve) =>
    transport.exchange(
      {
        jsonrpc: '2.0',
        id: 'pin',
        method: 'tools/list',
        params: {
          _meta: { [PROTOCOL_VERSION_META_KEY]: PROTOCOL_VERSION, [CLIENT_CAPABILITIES_META_KEY]: {} },
        },
      },
      () => resolve(),
    ),
  );

  const answer = (req: IncomingMessage, body: string, reply: Reply) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      reply(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: header('mcp-protocol-version'),
      mcpMethodHeader: header('mcp-method'),
      mcpNameHeader: header('mcp-name'),
      body: parsed,
    });
    const id = (parsed as { id?: unknown } | null)?.id ?? null;
    if (route.kind === 'reject') {
      reply(route.httpStatus, { jsonrpc: '2.0', id, error: { code: route.code, message: route.message } });
      return;
    }
    if (route.kind !== 'modern' || route.messageKind !== 'request') {
      const message = 'The SDK floor serves 2026-07-28 requests only.';
      reply(400, { jsonrpc: '2.0', id, error: { code: -32600, message } });
      return;
    }
    transport.exchange(route.message, reply);
  };

  return serveOnLoopback(
    (req, res) => {
      if (answerSideChannel(req, res)) return;
      if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      onBody(req, (body) => answer(req, body, replyTo(res)));
    },
    () => serving.close(),
  );
}
