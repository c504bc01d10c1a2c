// The 2025-only upstream of the gateway fleet run: a TypeScript SDK v1 server (@modelcontextprotocol/sdk
// 1.x, which offers no 2026-07-28) whose tool asks three questions in a row with server.elicitInput,
// each quoting the flow's marker and what was answered so far, then returns everything it was told.
// Usage: node trips-v1.mjs PORT (prints its URL on the first line once it listens).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const form = (properties) => ({ type: 'object', properties, required: Object.keys(properties) });

function build() {
  const mcp = new McpServer({ name: 'trips', version: '1.0.0' });
  const ask = async (message, requestedSchema) => {
    const answer = await mcp.server.elicitInput({ mode: 'form', message, requestedSchema });
    if (answer.action !== 'accept') throw new Error(`the person chose ${answer.action}`);
    return answer.content;
  };
  mcp.registerTool(
    'book_trip',
    { description: 'Books a trip in three questions', inputSchema: { marker: z.string().max(64) } },
    async ({ marker }) => {
      const { city } = await ask(`Trip ${marker}: which city?`, form({ city: { type: 'string' } }));
      const { day } = await ask(
        `Trip ${marker} to ${city}: which day?`,
        form({ day: { type: 'string', format: 'date' } }),
      );
      const { seats } = await ask(
        `Trip ${marker} to ${city} on ${day}: how many seats?`,
        form({ seats: { type: 'integer', minimum: 1, maximum: 9 } }),
      );
      const booked = { marker, city, day, seats };
      return { content: [{ type: 'text', text: JSON.stringify(booked) }], structuredContent: booked };
    },
  );
  return mcp;
}

const sessions = new Map();
const http = createServer(async (request, response) => {
  const id = request.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? sessions.get(id) : undefined;
  if (transport === undefined) {
    if (request.method !== 'POST' || id !== undefined) {
      response.writeHead(404).end();
      return;
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await build().connect(transport);
  }
  await transport.handleRequest(request, response);
});
http.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
});
process.on('SIGTERM', () => process.exit(0));
