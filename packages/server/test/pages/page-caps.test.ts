import { ask, createServer, type FlowStore, MemoryFlowStore } from '@parley/server';
import { RedisFlowStore } from '@parley/server/redis';
import { startRedis } from '@parley/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { type InProcess, serveInProcess } from '../wire/in-process.js';
import { CAPABILITIES, callTool } from '../wire/modern-envelope.js';
import { PagePerson } from '../wire/page-person.js';

// Issue 41, finding 3: only pending pages counted against a user's cap, and an answered or declined
// page kept its whole question (up to 64 KiB) for half an hour. Alice opened and declined 1,200
// pages of a tool that echoes a 2 KB argument into its question, and none was refused.

let redis: Awaited<ReturnType<typeof startRedis>>;
let client: Redis;
beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

const stores: [string, () => FlowStore][] = [
  ['memory', () => new MemoryFlowStore()],
  ['Redis', () => new RedisFlowStore(client, { prefix: `pages:${Math.random()}:` })],
];

describe.each(stores)('question pages in %s', (_name, makeStore) => {
  let served: InProcess;
  let store: FlowStore;
  beforeAll(async () => {
    store = makeStore();
    const server = createServer({
      name: 'echo-desk',
      version: '1.0.0',
      log: () => {},
      questionPages: { store, person: () => 'alice', signIn: () => '/signin' },
    });
    server.tool('echo_question', { input: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
      const boxes = await ctx.elicit(`About "${text}": how many boxes?`, ask.integer({ title: 'Boxes' }));
      return boxes.action === 'accept' ? `${boxes.value} boxes.` : `Nothing (${boxes.action}).`;
    });
    served = await serveInProcess(server);
  });
  afterAll(() => served?.close());

  it('counts answered pages against the user’s cap, and keeps none of their questions', async () => {
    const person = new PagePerson();
    const opened: string[] = [];
    let refusal = '';
    for (let index = 0; index < 110 && refusal === ''; index++) {
      const reply = await callTool(
        served.wire,
        'echo_question',
        { text: `${index}:${'x'.repeat(2048)}` },
        {},
        { capabilities: CAPABILITIES.urlOnly, user: 'alice' },
      );
      const result = reply.message.result!;
      if (result.resultType !== 'input_required') {
        refusal = (result.content as { text: string }[])[0]!.text;
        break;
      }
      const url = Object.values(result.inputRequests as Record<string, { params: { url: string } }>)[0]!
        .params.url;
      expect((await person.answer(url, { action: 'decline' })).status).toBe(200);
      opened.push(url.slice(url.lastIndexOf('/') + 1));
    }
    expect(opened).toHaveLength(100);
    expect(refusal).toMatch(/already have 20 links waiting to be opened, or 100 kept in all/);
    const first = await store.get(opened[0]!);
    expect(first).toMatchObject({ status: 'done', result: { action: 'decline' }, data: null });
    // Another user is not held back by alice's pages.
    const bob = await callTool(
      served.wire,
      'echo_question',
      { text: 'bob' },
      {},
      { capabilities: CAPABILITIES.urlOnly, user: 'bob' },
    );
    expect(bob.message.result?.resultType).toBe('input_required');
  });

  it('refuses a question too large for a page (16 KiB of data)', async () => {
    const reply = await callTool(
      served.wire,
      'echo_question',
      { text: 'y'.repeat(17 * 1024) },
      {},
      { capabilities: CAPABILITIES.urlOnly, user: 'carol' },
    );
    expect(reply.message.result?.isError).toBe(true);
    expect((reply.message.result!.content as { text: string }[])[0]!.text).toMatch(
      /over the 16384-byte limit/,
    );
  });
});
