import { type CallToolResult, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { ANSWER_SCHEMA, MAX_QUESTIONS, messageOf, resultText, TOOL } from '../survey.js';
import { countRunning } from './side-channel.js';

const surveyInput = z.object({ questions: z.number().int().min(1).max(MAX_QUESTIONS) });

/**
 * The survey written for the 2025 eras with the raw official SDK alone: the handler awaits
 * `ctx.mcpReq.elicitInput` for each question (the server pushes `elicitation/create` over the
 * session). No state codec, no answer checking beyond the SDK's own: the leanest way the SDK
 * holds a pending question, so (f) can read it as a floor. Served over stdio only.
 */
export function sdkPushSurveyServer(): McpServer {
  const server = new McpServer({ name: 'bench-sdk-push', version: '0.1.0' });
  server.registerTool(
    TOOL,
    { description: 'Asks the given number of questions, one at a time', inputSchema: surveyInput },
    ({ questions }, ctx): Promise<CallToolResult> =>
      countRunning(async () => {
        const answers: string[] = [];
        for (let index = 0; index < questions; index++) {
          // The SDK marks elicitInput deprecated for 2026-07-28 requests; this server serves 2025 clients.
          const reply = await ctx.mcpReq.elicitInput(
            { mode: 'form', message: messageOf(index, questions), requestedSchema: ANSWER_SCHEMA },
            { timeout: 3_600_000 },
          );
          const answer = reply.action === 'accept' ? reply.content?.answer : undefined;
          if (typeof answer !== 'string')
            return {
              content: [{ type: 'text', text: `Stopped at question ${index + 1} (${reply.action}).` }],
            };
          answers.push(answer);
        }
        return { content: [{ type: 'text', text: resultText(answers) }] };
      }),
  );
  return server;
}
