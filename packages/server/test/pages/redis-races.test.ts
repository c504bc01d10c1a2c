import { randomBytes } from 'node:crypto';
import { ask, createServer } from '@parley/server';
import { RedisFlowStore } from '@parley/server/redis';
import { startRedis } from '@parley/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcess, serveInProcess } from '../wire/in-process.js';
import { CAPABILITIES, callTool, resumeTokenOf, resuming } from '../wire/modern-envelope.js';
import { PagePerson, pageLinkIn } from '../wire/page-person.js';

// Races on question pages with a RedisFlowStore (issue 41, findings 4 and 5), on a real Redis shared
// by two server processes' worth of connections: what a page's racing submits leave, and how many
// times a parked call's retries run its handler.

let redis: Awaited<ReturnType<typeof startRedis>>;
const connections: Redis[] = [];
let served: InProcess;
const linked: string[] = [];
/** Runs of book_return's handler past its question: what a parked call does once resumed. */
let pastTheQuestion = 0;

beforeAll(async () => {
  redis = await startRedis();
  const connect = () => {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    connections.push(client);
    return client;
  };
  const server = createServer({
    name: 'couriers',
    version: '1.0.0',
    log: () => {},
    questionPages: { store: new RedisFlowStore(connect(), { prefix: `races:${Math.random()}:` }) },
  });
  server.tool('link_courier_account', {}, async (_args, ctx) => {
    const key = await ctx.elicit(
      'Paste the API key of your courier account',
      ask.secret({ title: 'API key' }),
    );
    if (key.action !== 'accept') return `Not linked (${key.action}).`;
    linked.push(key.value.reveal());
    return 'Linked.';
  });
  server.tool('book_return', {}, async (_args, ctx) => {
    const boxes = await ctx.elicit('How many boxes?', ask.integer({ title: 'Boxes' }), { key: 'boxes' });
    pastTheQuestion++;
    return boxes.action === 'accept' ? `${boxes.value} boxes.` : 'No boxes.';
  });
  served = await serveInProcess(server);
});
afterAll(async () => {
  await served?.close();
  for (const client of connections) client.disconnect();
  await redis?.stop();
});

describe('racing submits of a secret (finding 4)', () => {
  it('gives the call the secret of the submit told "Answer sent", never one told 410', async () => {
    for (let round = 0; round < 5; round++) {
      const first = await callTool(
        served.wire,
        'link_courier_account',
        { round },
        {},
        { capabilities: CAPABILITIES.urlOnly },
      );
      const result = first.message.result!;
      const url = Object.values(result.inputRequests as Record<string, { params: { url: string } }>)[0]!
        .params.url;
      const person = new PagePerson();
      const { island } = await person.open(url);
      const secrets = Array.from({ length: 10 }, () => `sk_${randomBytes(9).toString('hex')}`);
      const replies = await Promise.all(
        secrets.map((value) =>
          person.post(island!.answerUrl, { csrf: island!.csrf, action: 'accept', content: { value } }),
        ),
      );
      const sent = secrets.filter((_, index) => replies[index]!.status === 200);
      expect(sent).toHaveLength(1);
      expect(replies.filter((reply) => reply.status === 410)).toHaveLength(9);
      const done = await callTool(
        served.wire,
        'link_courier_account',
        { round },
        {
          requestState: result.requestState,
          inputResponses: Object.fromEntries(
            Object.keys(result.inputRequests as object).map((key) => [key, { action: 'accept' }]),
          ),
        },
        { capabilities: CAPABILITIES.urlOnly },
      );
      expect((done.message.result!.content as { text: string }[])[0]!.text).toBe('Linked.');
      expect(linked.at(-1)).toBe(sent[0]);
    }
  });
});

describe('a parked call retried at once (finding 5)', () => {
  it('resumes once: of six concurrent retries, one goes on past the page, the others start anew', async () => {
    const resumes = { capabilities: CAPABILITIES.resumes };
    const first = await callTool(served.wire, 'book_return', {}, {}, resumes);
    const result = first.message.result!;
    await new PagePerson().answer(pageLinkIn((result.content as { text: string }[])[0]!.text), {
      action: 'accept',
      content: { value: 2 },
    });
    const before = pastTheQuestion;
    const retries = await Promise.all(
      Array.from({ length: 6 }, () =>
        callTool(served.wire, 'book_return', {}, resuming(resumeTokenOf(result)), resumes),
      ),
    );
    const texts = retries.map((reply) => (reply.message.result!.content as { text: string }[])[0]!.text);
    expect(pastTheQuestion - before).toBe(1);
    expect(texts.filter((text) => text === '2 boxes.')).toHaveLength(1);
    // The others found nothing parked: each is a new call, asking on a page of its own.
    expect(texts.filter((text) => text.includes('Answer here:'))).toHaveLength(5);
  });
});
