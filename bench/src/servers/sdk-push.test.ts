import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { answerOf, resultText, TOOL } from '../survey.js';

// Spawned as the bench spawns it, from the built bench (npm run build).
const main = fileURLToPath(new URL('../../dist/servers/main.js', import.meta.url));

describe('the raw SDK 2025-style survey (sdk-push) over stdio', () => {
  it('asks each question with elicitation/create and answers with everything it was told', async () => {
    const client = new Client(
      { name: 'bench-test', version: '0.1.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { answer: answerOf(asked.length - 1) } };
    });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [main, 'sdk-push', 'stdio'] }),
    );
    try {
      const result = await client.callTool({ name: TOOL, arguments: { questions: 3 } });
      expect(asked).toEqual(['Question 1 of 3?', 'Question 2 of 3?', 'Question 3 of 3?']);
      expect(result.content).toEqual([
        { type: 'text', text: resultText([answerOf(0), answerOf(1), answerOf(2)]) },
      ]);
    } finally {
      await client.close();
    }
  });
});
