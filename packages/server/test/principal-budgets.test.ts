// Issue 24, findings 2 and 3, against the budget-server fixture as a real process over loopback:
// one user (or one anonymous address) cannot take every subscriptions/listen stream or every task
// slot from the others, a listen filter has a size cap, and a task waiting on a question times out
// like any question. Anonymous callers are told apart by address: requests leave from 127.0.0.1 and
// 127.0.0.2 (both loopback on Linux). Before the fix mallory's twelve streams were all accepted and
// alice got 503, the second anonymous address was refused a task, a 200-URI filter was accepted, and
// the task stayed input_required for good.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { SETTLE_TIMEOUT_MS } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';
import { CAPABILITIES, MODERN, modernMeta } from './wire/modern-envelope.js';

const FIXTURE = fileURLToPath(new URL('./dist/fixtures/budget-server.js', import.meta.url));
const TASKS = { ...CAPABILITIES.formOnly, extensions: { 'io.modelcontextprotocol/tasks': {} } };

let fixture: HttpFixture;
beforeAll(async () => {
  fixture = await startHttpFixture(
    {
      BUDGET_MAX_SESSIONS: '12',
      BUDGET_STREAMS_PER_CALLER: '3',
      BUDGET_TASKS_PER_CALLER: '2',
      BUDGET_QUESTION_TIMEOUT_MS: '1500',
    },
    FIXTURE,
  );
});
afterAll(() => fixture?.stop());

interface Sent {
  readonly status: number;
  readonly response: IncomingMessage;
  /** The whole body (waits for the end). */
  text(): Promise<string>;
  close(): void;
}

let nextId = 1;
/** One 2026-07-28 request from `from` (a loopback address), as `user` when given. */
function send(
  method: string,
  params: Record<string, unknown>,
  options: { from?: string; user?: string; capabilities?: Record<string, unknown> } = {},
): Promise<Sent> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: { _meta: modernMeta(options.capabilities ?? CAPABILITIES.formOnly), ...params },
  });
  const name = (params.name ?? params.taskId) as string | undefined;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      fixture.url,
      {
        method: 'POST',
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': method,
          ...(name !== undefined && { 'mcp-name': name }),
          ...(options.user !== undefined && { authorization: `Bearer ${options.user}` }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        const ended = new Promise<string>((done) =>
          response.on('end', () => done(Buffer.concat(chunks).toString())),
        );
        resolve({
          status: response.statusCode ?? 0,
          response,
          text: () => ended,
          close: () => outgoing.destroy(),
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The one JSON-RPC message of a JSON body, or the last one of an SSE body. */
async function messageOf(
  sent: Sent,
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const text = await sent.text();
  if (!String(sent.response.headers['content-type']).includes('text/event-stream')) return JSON.parse(text);
  const frames = text.split('\n').filter((line) => line.startsWith('data:') && line.length > 6);
  return JSON.parse(frames.at(-1)!.slice(5));
}

const listen = (
  options: { from?: string; user?: string },
  notifications: unknown = { toolsListChanged: true },
) => send('subscriptions/listen', { notifications }, options);

describe('subscriptions/listen budgets', () => {
  it('one user cannot take every stream: mallory gets her share, alice and anonymous callers still get in', async () => {
    const open: Sent[] = [];
    try {
      const mallory: number[] = [];
      for (let i = 0; i < 12; i++) {
        const sent = await listen({ user: 'mallory' });
        mallory.push(sent.status);
        if (sent.status === 200) open.push(sent);
        else await sent.text();
      }
      expect(mallory.filter((status) => status === 200)).toHaveLength(3);
      expect(mallory.filter((status) => status === 429)).toHaveLength(9);
      const alice = await listen({ user: 'alice' });
      open.push(alice);
      expect(alice.status).toBe(200);

      const first: number[] = [];
      for (let i = 0; i < 5; i++) {
        const sent = await listen({ from: '127.0.0.1' });
        first.push(sent.status);
        if (sent.status === 200) open.push(sent);
        else
          expect((await messageOf(sent)).error?.message).toMatch(
            /Too many open subscription streams for this caller/,
          );
      }
      expect(first).toEqual([200, 200, 200, 429, 429]);
      const second = await listen({ from: '127.0.0.2' });
      open.push(second);
      expect(second.status).toBe(200);
    } finally {
      for (const sent of open) sent.close();
    }
  });

  it("gives a closed stream's slot back to its caller", async () => {
    const streams = [
      await listen({ user: 'carol' }),
      await listen({ user: 'carol' }),
      await listen({ user: 'carol' }),
    ];
    expect(streams.map((sent) => sent.status)).toEqual([200, 200, 200]);
    streams[0]!.close();
    let again: Sent | undefined;
    // Until the server has seen the stream close (a busy machine may take a while).
    for (const deadline = Date.now() + SETTLE_TIMEOUT_MS; Date.now() < deadline; ) {
      again = await listen({ user: 'carol' });
      if (again.status === 200) break;
      await again.text();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(again?.status).toBe(200);
    for (const sent of [...streams, again!]) sent.close();
  });

  it('refuses an oversized filter with -32602 before holding it', async () => {
    const many = Array.from({ length: 200 }, (_, i) => `notes://${i}`);
    const tooMany = await listen({ user: 'dave' }, { resourceSubscriptions: many });
    expect(tooMany.status).toBe(400);
    expect((await messageOf(tooMany)).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/at most 100/),
    });
    const long = await listen({ user: 'dave' }, { resourceSubscriptions: [`notes://${'x'.repeat(5000)}`] });
    expect(long.status).toBe(400);
    expect((await messageOf(long)).error?.message).toMatch(/longer than 2048 characters/);
    const fine = await listen({ user: 'dave' }, { resourceSubscriptions: many.slice(0, 100) });
    expect(fine.status).toBe(200);
    fine.close();
  });
});

describe('task budgets and question timeouts', () => {
  const startTask = (from: string) =>
    send('tools/call', { name: 'review', arguments: {} }, { from, capabilities: TASKS }).then(messageOf);

  it('counts anonymous tasks by address: one address at its cap does not lock out another', async () => {
    expect((await startTask('127.0.0.1')).result?.resultType).toBe('task');
    expect((await startTask('127.0.0.1')).result?.resultType).toBe('task');
    const refused = await startTask('127.0.0.1');
    expect(refused.result).toMatchObject({ isError: true });
    expect(JSON.stringify(refused.result)).toContain('Too many tasks from this address');
    expect((await startTask('127.0.0.2')).result?.resultType).toBe('task');
  });

  it('ends a task whose question nobody answers after the question timeout, with a clear error', async () => {
    const created = await startTask('127.0.0.3');
    const taskId = String(created.result?.taskId);
    const get = () =>
      send('tasks/get', { taskId }, { from: '127.0.0.3', capabilities: TASKS }).then(messageOf);
    let status: unknown;
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let last: Record<string, unknown> | undefined;
    while (Date.now() < deadline) {
      last = (await get()).result;
      status = last?.status;
      if (status === 'completed' || status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe('completed');
    expect(last?.result).toMatchObject({ isError: true });
    expect(JSON.stringify(last?.result)).toMatch(/No answer came within 1500 ms/);
  });
});
