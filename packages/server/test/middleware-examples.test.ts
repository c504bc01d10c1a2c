// The README's middleware examples (examples/middleware.ts) run against a real server, and the README
// shows exactly that code.
import { readFileSync } from 'node:fs';
import { ask, createServer } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReporter, perUserRateLimit, structuredLogging, timing } from '../examples/middleware.js';
import { type InProcess, serveInProcess } from './wire/in-process.js';
import { callTool } from './wire/modern-envelope.js';
import { accept, inputRequiredOf, toolResultOf } from './wire/modern-results.js';

const EXAMPLES = readFileSync(new URL('../examples/middleware.ts', import.meta.url), 'utf8');
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('the README middleware examples', () => {
  const timings: string[] = [];
  const logs: string[] = [];
  const reported: string[] = [];
  let served: InProcess;

  beforeAll(async () => {
    const server = createServer({ name: 'examples', version: '1.0.0', log: () => {} });
    server.use(
      timing((line) => timings.push(line)),
      structuredLogging((line) => logs.push(line)),
      errorReporter((error, where) => reported.push(`${where}: ${(error as Error).message}`)),
      perUserRateLimit(2, 60_000),
    );
    server.tool('greet', {}, async (_args, ctx) => {
      const name = await ctx.elicit('What is your name?', ask.text(), { key: 'name' });
      if (name.action === 'accept' && name.value === 'crash') throw new Error('the greeter broke');
      return name.action === 'accept' ? `Hello, ${name.value}!` : 'Hello!';
    });
    served = await serveInProcess(server);
  });
  afterAll(() => served?.close());

  const greet = async (user: string, name: string) => {
    const first = inputRequiredOf(await callTool(served.wire, 'greet', {}, {}, { user }));
    return toolResultOf(
      await callTool(
        served.wire,
        'greet',
        {},
        { requestState: first.requestState, inputResponses: { name: accept(name) } },
        { user },
      ),
    );
  };

  it('are the code the README shows', () => {
    for (const region of ['timing', 'logging', 'rate-limit', 'error-reporter']) {
      const code = new RegExp(`// #region ${region}\\n([\\s\\S]*?)// #endregion ${region}`).exec(
        EXAMPLES,
      )?.[1];
      expect(code, region).toBeTruthy();
      expect(README).toContain(code!.trimEnd());
    }
  });

  it('time and log every round, ask or complete, without the answers', async () => {
    timings.length = 0;
    logs.length = 0;
    expect((await greet('ann', 'Ann')).text).toBe('Hello, Ann!');
    expect(timings).toEqual([
      expect.stringMatching(/^tools\/call greet round 1 ask in \d+\.\d ms$/),
      expect.stringMatching(/^tools\/call greet round 2 complete in \d+\.\d ms$/),
    ]);
    expect(logs.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        name: 'greet',
        era: 'modern',
        round: 1,
        firstRound: true,
        outcome: 'ask',
        asked: ['name'],
        user: 'ann',
      }),
      expect.objectContaining({
        name: 'greet',
        round: 2,
        firstRound: false,
        outcome: 'complete',
        asked: [],
        user: 'ann',
      }),
    ]);
    expect(logs.join('\n')).not.toContain('Ann');
  });

  it('report errors, never asks', async () => {
    reported.length = 0;
    const failed = await greet('cat', 'crash');
    expect(failed.isError).toBe(true);
    expect(reported).toEqual(['tools/call greet (round 2): the greeter broke']);
  });

  it('rate-limit first rounds per user, never a call already answering questions', async () => {
    const first = inputRequiredOf(await callTool(served.wire, 'greet', {}, {}, { user: 'dan' }));
    inputRequiredOf(await callTool(served.wire, 'greet', {}, {}, { user: 'dan' }));
    const third = toolResultOf(await callTool(served.wire, 'greet', {}, {}, { user: 'dan' }));
    expect(third.isError).toBe(true);
    expect(third.text).toMatch(/^Too many calls: at most 2 per 60 s\. Try again in \d+ s\.$/);
    // The first call's next round is not a new call: it goes through.
    const answered = await callTool(
      served.wire,
      'greet',
      {},
      { requestState: first.requestState, inputResponses: { name: accept('Dan') } },
      { user: 'dan' },
    );
    expect(toolResultOf(answered).text).toBe('Hello, Dan!');
    // Another user has their own budget.
    expect((await greet('eve', 'Eve')).text).toBe('Hello, Eve!');
  });
});
