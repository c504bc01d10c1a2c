// Issue 18: "disconnection SHOULD NOT be interpreted as the client cancelling its request" (Streamable
// HTTP, 2025). A 2025 client whose connection drops while its call waits on a question reconnects
// with Last-Event-ID within `resumeGraceMs` and finishes the call; one that never comes back has
// the call cancelled after the grace, which frees the question.
import { ask, createServer, type Listening, type ParleyServer } from '@parley/server';
import { SETTLE_TIMEOUT_MS } from '@parley/testing';
import { afterEach, expect, it } from 'vitest';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const VERSION = '2025-11-25';

let listening: Listening | undefined;
afterEach(async () => {
  await listening?.close();
  listening = undefined;
});

function noteServer(): ParleyServer {
  const server = createServer({ name: 'resume', version: '1.0.0', log: () => {} });
  server.tool('note', { description: 'Asks for a note.' }, async (_args, ctx) => {
    const answer = await ctx.elicit('A note?', ask.text(), { key: 'q' });
    return answer.action === 'accept' ? `Noted: ${answer.value}` : answer.action;
  });
  return server;
}

interface SseEvent {
  readonly id: string | undefined;
  readonly data: string;
}

/** Reads server-sent events from a response body until `until` says stop. */
async function readEvents(body: ReadableStream<Uint8Array>, until: (event: SseEvent) => boolean) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { events, reader };
    buffered += decoder.decode(value, { stream: true });
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const lines = buffered.slice(0, end).split('\n');
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
      const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
      const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
      if (data === undefined || data === '') continue;
      const event = { id, data };
      events.push(event);
      if (until(event)) return { events, reader };
    }
  }
}

async function openSession(url: string): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: VERSION,
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'resume-test', version: '1' },
      },
    }),
  });
  await init.text();
  const session = {
    ...HEADERS,
    'mcp-session-id': init.headers.get('mcp-session-id')!,
    'mcp-protocol-version': VERSION,
  };
  await fetch(url, {
    method: 'POST',
    headers: session,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return session;
}

/** Calls `note` and drops the connection as soon as the question arrived; answers the question's event. */
async function callAndDrop(url: string, session: Record<string, string>) {
  const dropped = new AbortController();
  const call = await fetch(url, {
    method: 'POST',
    headers: session,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'note', arguments: {} },
    }),
    signal: dropped.signal,
  });
  const { events } = await readEvents(call.body!, (event) => event.data.includes('elicitation/create'));
  const question = events.at(-1)!;
  dropped.abort();
  return question;
}

it('a client whose stream dropped reconnects with Last-Event-ID and finishes the call', async () => {
  const server = noteServer();
  listening = await server.listen({ resumeGraceMs: 30_000 });
  const session = await openSession(listening.url);
  const question = await callAndDrop(listening.url, session);
  expect(question.id).toBeTruthy();
  const elicitation = JSON.parse(question.data) as { id: number };

  const resumed = await fetch(listening.url, {
    method: 'GET',
    headers: { ...session, accept: 'text/event-stream', 'last-event-id': question.id! },
  });
  expect(resumed.status).toBe(200);
  const answered = await fetch(listening.url, {
    method: 'POST',
    headers: session,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: elicitation.id,
      result: { action: 'accept', content: { value: 'kept' } },
    }),
  });
  expect(answered.status).toBe(202);
  const { events } = await readEvents(resumed.body!, (event) => event.data.includes('"id":7'));
  const result = JSON.parse(events.at(-1)!.data) as { result: { content: { text: string }[] } };
  expect(result.result.content[0]!.text).toBe('Noted: kept');
  expect(server.pendingQuestions).toBe(0);
});

it('a client that never comes back has its call cancelled after the grace, which frees the question', async () => {
  const server = noteServer();
  listening = await server.listen({ resumeGraceMs: 200 });
  const session = await openSession(listening.url);
  await callAndDrop(listening.url, session);
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (server.pendingQuestions > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  expect(server.pendingQuestions).toBe(0);
  // The session itself lives on.
  const list = await fetch(listening.url, {
    method: 'POST',
    headers: session,
    body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' }),
  });
  expect(await list.text()).toContain('"note"');
});

it('with resumeGraceMs 0 a dropped stream cancels its call at once', async () => {
  const server = noteServer();
  listening = await server.listen({ resumeGraceMs: 0 });
  const session = await openSession(listening.url);
  const question = await callAndDrop(listening.url, session);
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (server.pendingQuestions > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  expect(server.pendingQuestions).toBe(0);
  // Nothing is left to resume: the stream's requests were cancelled.
  const resumed = await fetch(listening.url, {
    method: 'GET',
    headers: { ...session, accept: 'text/event-stream', 'last-event-id': question.id! },
  });
  expect(resumed.status).toBe(200);
  const { events } = await readEvents(resumed.body!, () => false);
  expect(events).toEqual([]);
});
