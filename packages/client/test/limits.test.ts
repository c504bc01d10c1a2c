// Issue 15, finding 8: a server cannot make the client take unbounded input. Each attack of the
// attack pass, against a real server process, ends the call with a `too-large` error that names the
// limit, and the host is shown nothing of it. Cancel on one question ends its whole round.
import { connect, DEFAULT_LIMITS, type ParleyClient, ParleyError } from '@parley/client';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, watchfulUI } from './support.js';

const server = ['node', fixture('oversized-server.mjs')];
const textOf = (result: { content?: unknown }): string =>
  ((result.content as { text?: string }[] | undefined) ?? []).map((block) => block.text ?? '').join('');

let client: ParleyClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function failure(promise: Promise<unknown>): Promise<ParleyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ParleyError);
  return error as ParleyError;
}

describe('client limits', () => {
  it('has safe defaults', () => {
    expect(DEFAULT_LIMITS).toEqual({
      questionsPerRound: 20,
      fieldsPerForm: 100,
      messageLength: 10_000,
      resultBytes: 16 * 1024 * 1024,
    });
  });

  it('refuses 500 questions in one round before showing any', async () => {
    const { ui, asked } = watchfulUI({});
    client = await connect(server, { ui });
    const error = await failure(client.callTool('many_questions'));
    expect(error).toMatchObject({ kind: 'too-large', server: 'oversized' });
    expect(error.message).toBe(
      'oversized sent too many questions in one round during tool "many_questions": 500 where the limit is 20; nothing of it was shown. If this server is trusted to send that much, raise limits.questionsPerRound in connect()',
    );
    expect(asked).toEqual([]);
  });

  it.each(['modern', 'handshake'] as const)(
    'refuses a 5,000-field form with a 2 MB message (%s era)',
    async (era) => {
      const { ui, asked } = watchfulUI({});
      client = await connect(server, { ui, era });
      const error = await failure(client.callTool('huge_form'));
      expect(error.kind).toBe('too-large');
      expect(error.message).toMatch(/a question message too long .*: 2097152 where the limit is 10000/);
      expect(asked).toEqual([]);
    },
  );

  it('refuses a form with too many fields, and a long message, each by its own limit', async () => {
    const { ui, asked } = watchfulUI({});
    client = await connect(server, { ui, limits: { messageLength: 3 * 1024 * 1024 } });
    const fields = await failure(client.callTool('huge_form'));
    expect(fields.message).toMatch(
      /a form with too many fields .*: 5000 where the limit is 100;.*limits\.fieldsPerForm/,
    );
    await client.close();
    client = await connect(server, { ui });
    const message = await failure(client.callTool('long_message'));
    expect(message.message).toMatch(/a question message too long .*limits\.messageLength/);
    expect(asked).toEqual([]);
  });

  it('refuses a result past resultBytes, and takes it when the limit is raised', async () => {
    const MiB = 1024 * 1024;
    client = await connect(server, { ui: watchfulUI({}).ui, limits: { resultBytes: MiB } });
    const error = await failure(client.callTool('huge_result'));
    expect(error.message).toMatch(
      /a result too large during tool "huge_result": \d+ where the limit is 1048576;.*limits\.resultBytes/,
    );
    await client.close();
    client = await connect(server, { ui: watchfulUI({}).ui, limits: { resultBytes: 3 * MiB } });
    expect(textOf(await client.callTool('huge_result'))).toHaveLength(2 * MiB);
  });

  it('refuses limits that are not positive numbers', async () => {
    await expect(connect(server, { ui: watchfulUI({}).ui, limits: { fieldsPerForm: 0 } })).rejects.toThrow(
      'limits.fieldsPerForm must be a positive number; got 0',
    );
  });
});

describe('cancel', () => {
  it('ends the whole round: the questions after it are answered cancel without being shown', async () => {
    const { ui, asked } = watchfulUI({ first: { action: 'cancel' } });
    client = await connect(server, { ui });
    const result = await client.callTool('three_questions');
    expect(asked.map((question) => question.key)).toEqual(['first']);
    expect(textOf(result)).toBe('first=cancel second=cancel third=cancel');
  });
});
