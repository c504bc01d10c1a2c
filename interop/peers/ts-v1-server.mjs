// The TypeScript SDK v1 (@modelcontextprotocol/sdk 1.x) server of the interop suite: questions the way
// most MCP servers ask them today, with server.elicitInput. Speaks the 2025 revisions only.
// Usage: node ts-v1-server.mjs stdio | node ts-v1-server.mjs http PORT
// TS_V1_GET_DELAY_MS (http): how long each GET waits before it is served, as on a busy machine,
// so a session's standalone stream opens late (and what server.elicitInput sends before it opens
// is dropped, as this SDK does).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const outcome = (result) => (result.action === 'accept' ? JSON.stringify(result.content) : result.action);
const form = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required });

function build() {
  const mcp = new McpServer({ name: 'ts-v1-peer', version: '1.0.0' });
  const ask = (message, requestedSchema) =>
    mcp.server.elicitInput({ mode: 'form', message, requestedSchema });
  mcp.registerTool('profile', { description: 'Every field kind' }, async () =>
    text(
      outcome(
        await ask(
          'Your profile',
          form({
            name: { type: 'string', title: 'Name', minLength: 1 },
            email: { type: 'string', format: 'email' },
            birthday: { type: 'string', format: 'date' },
            age: { type: 'integer', minimum: 0, maximum: 150 },
            height: { type: 'number' },
            subscribed: { type: 'boolean' },
            size: {
              type: 'string',
              oneOf: [
                { const: 's', title: 'Small' },
                { const: 'm', title: 'Medium' },
              ],
            },
            legacy: { type: 'string', enum: ['x', 'y'], enumNames: ['Ex', 'Why'] },
            toppings: { type: 'array', items: { type: 'string', enum: ['ham', 'cheese'] } },
            extras: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'a', title: 'Aa' },
                  { const: 'b', title: 'Bb' },
                ],
              },
            },
          }),
        ),
      ),
    ),
  );
  mcp.registerTool('confirm', { description: 'accept, decline or cancel' }, async () =>
    text(outcome(await ask('Go ahead?', form({ ok: { type: 'boolean' } })))),
  );
  mcp.registerTool('two_steps', { description: 'Two questions in sequence' }, async () => {
    const first = await ask('Step 1: your name?', form({ name: { type: 'string' } }));
    if (first.action !== 'accept') return text(first.action);
    const second = await ask('Step 2: favourite color?', form({ color: { type: 'string' } }));
    if (second.action !== 'accept') return text(second.action);
    return text(`${first.content.name} likes ${second.content.color}`);
  });
  mcp.registerTool('with_defaults', { description: 'Defaults (SEP-1034)' }, async () =>
    text(
      outcome(
        await ask(
          'Confirm the defaults',
          form(
            {
              name: { type: 'string', default: 'Ada' },
              age: { type: 'integer', default: 36 },
              size: { type: 'string', enum: ['s', 'm'], default: 'm' },
              subscribed: { type: 'boolean', default: true },
            },
            [],
          ),
        ),
      ),
    ),
  );
  mcp.registerTool('sign_in', { description: 'URL mode' }, async () => {
    const result = await mcp.server.elicitInput({
      mode: 'url',
      message: 'Sign in to continue',
      url: 'https://auth.example.com/start',
      elicitationId: randomUUID(),
    });
    return text(result.action);
  });
  mcp.registerTool(
    'tagged',
    { description: 'Waits, then asks', inputSchema: { tag: z.string(), delay: z.number() } },
    async ({ tag, delay }) => {
      await new Promise((resolve) => setTimeout(resolve, delay * 1000));
      const answer = await ask(`Question for ${tag}`, form({ value: { type: 'string' } }));
      return text(`${tag}: ${answer.action === 'accept' ? answer.content.value : answer.action}`);
    },
  );
  return mcp;
}

if (process.argv[2] === 'stdio') {
  await build().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const getDelayMs = Number(process.env.TS_V1_GET_DELAY_MS ?? 0);
  const http = createServer(async (request, response) => {
    if (request.method === 'GET' && getDelayMs > 0)
      await new Promise((resolve) => setTimeout(resolve, getDelayMs));
    const id = request.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      if (request.method !== 'POST') {
        response.writeHead(400).end();
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      await build().connect(transport);
    }
    await transport.handleRequest(request, response);
  });
  http.listen(Number(process.argv[3]), '127.0.0.1');
  process.on('SIGTERM', () => process.exit(0));
}
