// The raw TypeScript SDK v2 server (@modelcontextprotocol/server) of the interop suite, both eras on
// one endpoint: 2026-07-28 clients get InputRequiredResult rounds (inputRequired / inputResponse),
// 2025 clients a session each, asked with elicitInput. Prints its URL on its first line.
// Usage: node ts-v2-server.mjs
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import {
  createMcpHandler,
  inputRequired,
  inputResponse,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const CONFIRM = {
  message: 'Ship the order?',
  requestedSchema: {
    type: 'object',
    properties: { ok: { type: 'boolean', title: 'Ship' } },
    required: ['ok'],
  },
};
const SIGN_IN = { message: 'Connect your courier account', url: 'https://courier.example.com/connect' };
const outcome = (action, content) => (action === 'accept' ? JSON.stringify(content) : action);

function build(era) {
  const server = new McpServer({ name: 'ts-v2-peer', version: '2.0.0' });

  server.registerTool('confirm', { description: 'One yes/no form' }, async (ctx) => {
    if (era === 'legacy') {
      const result = await ctx.mcpReq.elicitInput({ mode: 'form', ...CONFIRM });
      return text(outcome(result.action, result.content));
    }
    const view = inputResponse(ctx.mcpReq.inputResponses, 'ship');
    if (view.kind === 'missing')
      return inputRequired({ inputRequests: { ship: inputRequired.elicit(CONFIRM) } });
    return text(outcome(view.action, view.content));
  });

  server.registerTool('sign_in', { description: 'URL mode' }, async (ctx) => {
    if (era === 'legacy') {
      const result = await ctx.mcpReq.elicitInput({ mode: 'url', ...SIGN_IN, elicitationId: randomUUID() });
      return text(result.action);
    }
    const view = inputResponse(ctx.mcpReq.inputResponses, 'courier');
    if (view.kind === 'missing')
      return inputRequired({ inputRequests: { courier: inputRequired.elicitUrl(SIGN_IN) } });
    return text(view.action);
  });
  return server;
}

const modern = createMcpHandler(() => build('modern'), { legacy: 'reject' });
const sessions = new Map();
async function legacy(request) {
  const sessionId = request.headers.get('mcp-session-id');
  const existing = sessionId ? sessions.get(sessionId) : undefined;
  if (existing) return existing.handleRequest(request);
  if (sessionId)
    return Response.json(
      { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unknown session' } },
      { status: 404 },
    );
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.set(id, transport),
  });
  transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
  await build('legacy').connect(transport);
  return transport.handleRequest(request);
}
const http = createServer(
  getRequestListener(async (request) => {
    if (new URL(request.url).pathname !== '/mcp') return new Response('Not found', { status: 404 });
    return (await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request);
  }),
);
http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`));
process.on('SIGTERM', () => http.close(() => process.exit(0)));
