// Guard style: read this round's answers, return inputRequired(questions, { data }), on both eras.
import { ask, createServer, input, inputRequired } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHandshake, type HandshakeConnection, textOf } from './wire/handshake-client.js';
import { type InProcess, serveInProcess } from './wire/in-process.js';
import { callTool } from './wire/modern-envelope.js';
import { accept, errorOf, inputRequiredOf, toolResultOf } from './wire/modern-results.js';

const questions = {
  confirm: input.elicit('Delete the 3 old invoices?', ask.boolean()),
  reason: input.elicit('Why?', ask.text({ maxLength: 20 })),
};

describe('guard style', () => {
  let served: InProcess;
  let handshake: HandshakeConnection;
  const runs: string[] = [];

  beforeAll(async () => {
    const server = createServer({ name: 'guard-test', version: '1.0.0', log: () => {} });
    server.tool('clean', {}, async (_args, ctx) => {
      const answers = await ctx.answers(questions);
      const step = ctx.data<{ files: string[] }>();
      runs.push(`${Object.keys(answers).join(',') || '-'} / ${step ? step.files.length : 'no data'}`);
      if (!answers.confirm || !answers.reason)
        return inputRequired(questions, { data: { files: ['a.pdf', 'b.pdf', 'c.pdf'] } });
      if (answers.confirm.action !== 'accept' || !answers.confirm.value) return 'Nothing deleted.';
      const reason = answers.reason.action === 'accept' ? answers.reason.value : '';
      return `Deleted ${step?.files.join(', ')} (${reason}).`;
    });
    served = await serveInProcess(server);
    handshake = await connectHandshake(
      { url: served.url, user: 'bob' },
      {
        capabilities: { elicitation: { form: {} } },
        answer: (request) =>
          request.params.message === 'Why?'
            ? { action: 'accept', content: { value: 'tidy up' } }
            : { action: 'accept', content: { value: true } },
      },
    );
  });
  afterAll(async () => {
    await handshake?.close();
    await served?.close();
  });

  it('2026-07-28: asks the questions, seals the author data, and runs with the answers', async () => {
    runs.length = 0;
    const first = inputRequiredOf(await callTool(served.wire, 'clean', {}));
    expect(Object.keys(first.inputRequests)).toEqual(['confirm', 'reason']);
    expect(first.inputRequests.confirm?.params.message).toBe('Delete the 3 old invoices?');
    // The author's data is sealed: it is not readable in the state.
    expect(first.requestState).not.toContain('a.pdf');
    expect(Buffer.from(first.requestState, 'base64url').toString('latin1')).not.toContain('a.pdf');

    const done = toolResultOf(
      await callTool(
        served.wire,
        'clean',
        {},
        {
          requestState: first.requestState,
          inputResponses: { confirm: accept(true), reason: accept('tidy up') },
        },
      ),
    );
    expect(done.text).toBe('Deleted a.pdf, b.pdf, c.pdf (tidy up).');
    expect(runs).toEqual(['- / no data', 'confirm,reason / 3']);
  });

  it('2026-07-28: an invalid answer is asked again with its reason, the valid one kept for the handler', async () => {
    const first = inputRequiredOf(await callTool(served.wire, 'clean', {}));
    const second = inputRequiredOf(
      await callTool(
        served.wire,
        'clean',
        {},
        {
          requestState: first.requestState,
          inputResponses: { confirm: accept(true), reason: accept('x'.repeat(30)) },
        },
      ),
    );
    expect(second.inputRequests.reason?.params.message).toMatch(
      /^That answer could not be used: .*\n\nWhy\?$/s,
    );
    const done = toolResultOf(
      await callTool(
        served.wire,
        'clean',
        {},
        {
          requestState: second.requestState,
          inputResponses: { confirm: accept(true), reason: accept('ok') },
        },
      ),
    );
    expect(done.text).toBe('Deleted a.pdf, b.pdf, c.pdf (ok).');
  });

  it('2026-07-28: answers to questions nobody asked are ignored on a first round', async () => {
    runs.length = 0;
    const first = inputRequiredOf(
      await callTool(
        served.wire,
        'clean',
        {},
        { inputResponses: { confirm: accept(true), reason: accept('sneaky') } },
      ),
    );
    expect(Object.keys(first.inputRequests)).toEqual(['confirm', 'reason']);
    expect(runs).toEqual(['- / no data']);
  });

  it('2026-07-28: a state edited by the client is refused', async () => {
    const first = inputRequiredOf(await callTool(served.wire, 'clean', {}));
    const edited = `${first.requestState.slice(0, -2)}AA`;
    errorOf(
      await callTool(
        served.wire,
        'clean',
        {},
        { requestState: edited, inputResponses: { confirm: accept(true) } },
      ),
      -32602,
    );
  });

  it('handshake era: the questions go over the session and the handler runs again in the same call', async () => {
    runs.length = 0;
    const result = await handshake.callTool('clean', {});
    expect(textOf(result)).toBe('Deleted a.pdf, b.pdf, c.pdf (tidy up).');
    expect(runs).toEqual(['- / no data', 'confirm,reason / 3']);
    const asked = handshake.received.filter((request) => request.method === 'elicitation/create');
    expect(asked.map((request) => (request.params as { message: string }).message).sort()).toEqual([
      'Delete the 3 old invoices?',
      'Why?',
    ]);
  });
});

describe('a guard whose ctx.answers() gets other questions than it asks', () => {
  let served: InProcess;
  // The mistake: ctx.answers() is given three questions, inputRequired() asks two. Answers count
  // only for the questions the last round asked, so the guard never sees one and loops.
  const three = { ...questions, note: input.elicit('Any note?', ask.text()) };

  beforeAll(async () => {
    const server = createServer({ name: 'guard-loop', version: '1.0.0', maxRounds: 3, log: () => {} });
    server.tool('clean', {}, async (_args, ctx) => {
      const { confirm, reason } = await ctx.answers(three);
      if (!confirm || !reason) return inputRequired(questions);
      return 'Deleted.';
    });
    served = await serveInProcess(server);
  });
  afterAll(async () => {
    await served?.close();
  });

  const HINT =
    "stopped: its guard passed ctx.answers() the questions 'confirm', 'reason', 'note', but the round asks 'confirm', 'reason'";

  it('2026-07-28: the round cap names the mistake', async () => {
    let state: string | undefined;
    for (let round = 1; round <= 3; round++) {
      const asked = inputRequiredOf(
        await callTool(
          served.wire,
          'clean',
          {},
          state === undefined
            ? {}
            : { requestState: state, inputResponses: { confirm: accept(true), reason: accept('tidy') } },
        ),
      );
      expect(Object.keys(asked.inputRequests)).toEqual(['confirm', 'reason']);
      state = asked.requestState;
    }
    const capped = toolResultOf(
      await callTool(
        served.wire,
        'clean',
        {},
        { requestState: state, inputResponses: { confirm: accept(true), reason: accept('tidy') } },
      ),
    );
    expect(capped.isError).toBe(true);
    expect(capped.text).toContain(`more than 3 rounds of questions and was ${HINT}`);
    expect(capped.text).toContain('Pass ctx.answers() the same questions you return with inputRequired()');
  });

  it('handshake era: the round cap names the mistake', async () => {
    const client = await connectHandshake(
      { url: served.url },
      {
        capabilities: { elicitation: { form: {} } },
        answer: (request) =>
          request.params.message === 'Why?'
            ? { action: 'accept', content: { value: 'tidy' } }
            : { action: 'accept', content: { value: true } },
      },
    );
    const result = await client.callTool('clean', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(HINT);
    await client.close();
  });
});
