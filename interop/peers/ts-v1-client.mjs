// The TypeScript SDK v1 client of the interop suite (plan and report as python_client.py describes).
// Usage: node ts-v1-client.mjs TARGET PLAN_JSON   (TARGET: an http URL or a command line)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [target, planText] = process.argv.slice(2);
const plan = JSON.parse(planText);
const asked = [];
const client = new Client(
  { name: 'ts-v1-peer-client', version: '1.0.0' },
  { capabilities: { elicitation: { form: {}, url: {} } } },
);
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  asked.push(request.params);
  const answer = plan.answers[request.params.message] ?? { action: 'cancel' };
  if (!('accept' in answer)) return { action: answer.action };
  return request.params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: answer.accept };
});
const transport = target.startsWith('http')
  ? new StreamableHTTPClientTransport(new URL(target))
  : new StdioClientTransport({ command: target.split(' ')[0], args: target.split(' ').slice(1) });
await client.connect(transport);
const results = await Promise.all(
  plan.calls.map(async ({ tool, args }) => {
    try {
      const result = await client.callTool({ name: tool, arguments: args ?? {} }, undefined, {
        timeout: 120_000,
      });
      return {
        text: result.content.map((block) => block.text ?? '').join(''),
        isError: result.isError === true,
      };
    } catch (error) {
      return { error: error.message };
    }
  }),
);
process.stdout.write(`${JSON.stringify({ protocol: transport.protocolVersion ?? null, results, asked })}\n`);
await client.close();
