// The raw TypeScript SDK v2 server (@modelcontextprotocol/server) of the interop suite, both eras on
// one endpoint: 2026-07-28 clients get InputRequiredResult rounds (inputRequired / inputResponse),
// 2025 clients a session each, asked with elicitInput. Prints its URL on its first line.
// Usage: node ts-v2-server.mjs
import { randomUUID } from 'node:crypto';
import { inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';
import { serveBothEras } from '@parley/testing/both-eras';

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

const server = await serveBothEras(build);
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
