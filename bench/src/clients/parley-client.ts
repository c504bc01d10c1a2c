import { connect, scripted } from '@parley/client';
import { answerOf, keyOf, MAX_QUESTIONS, resultText, TOOL } from '../survey.js';
import type { FlowDriver } from './driver.js';

/**
 * `@parley/client` on 2026-07-28 with a scripted UI that answers every question at once: the
 * client drives the rounds, checks each question and hands it to the UI.
 */
export async function parleyClientDriver(url: string): Promise<FlowDriver> {
  const answers = Object.fromEntries(
    Array.from({ length: MAX_QUESTIONS }, (_, i) => [keyOf(i), { answer: answerOf(i) }]),
  );
  const client = await connect(url, {
    ui: scripted(answers),
    era: 'modern',
    clientInfo: { name: 'parley-bench', version: '0.1.0' },
  });
  return {
    async flow(questions) {
      const result = await client.callTool(TOOL, { questions });
      const text = result.content[0]?.type === 'text' ? result.content[0].text : undefined;
      const expected = resultText(Array.from({ length: questions }, (_, i) => answerOf(i)));
      if (text !== expected) throw new Error(`@parley/client's flow ended with ${JSON.stringify(result)}.`);
    },
    close: () => client.close(),
  };
}
