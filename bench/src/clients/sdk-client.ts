import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { answerOf, PROTOCOL_VERSION, resultText, TOOL } from '../survey.js';
import type { FlowDriver } from './driver.js';

const QUESTION_NUMBER = /^Question (\d+) of/;

/**
 * The official SDK client on 2026-07-28: its elicitation handler answers at once and the client
 * drives the rounds itself (`callTool` retries with the answers and the echoed state).
 */
export async function sdkClientDriver(url: string): Promise<FlowDriver> {
  const client = new Client(
    { name: 'parley-bench', version: '0.1.0' },
    {
      capabilities: { elicitation: {} },
      versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
      inputRequired: { maxRounds: 25 },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const index = Number(QUESTION_NUMBER.exec(request.params.message)?.[1] ?? 0) - 1;
    return { action: 'accept', content: { answer: answerOf(index) } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    async flow(questions) {
      const result = await client.callTool({ name: TOOL, arguments: { questions } });
      const text = result.content[0]?.type === 'text' ? result.content[0].text : undefined;
      const expected = resultText(Array.from({ length: questions }, (_, i) => answerOf(i)));
      if (text !== expected) throw new Error(`The SDK client's flow ended with ${JSON.stringify(result)}.`);
    },
    close: () => client.close(),
  };
}
