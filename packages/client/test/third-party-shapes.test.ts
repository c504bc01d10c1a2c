// What real third-party servers send (FastMCP, the Python SDK, pydantic-built forms) reaches the host
// when its meaning is clear, and is refused briefly when it is not (issue 14, findings 1, 3, 4, 7).
import { connect, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLog, fixture, type HttpFixture, startHttpServer, watchfulUI } from './support.js';

const textOf = (result: { content?: unknown }): string =>
  ((result.content as { text?: string }[] | undefined) ?? []).map((block) => block.text ?? '').join('');
const rogue = ['node', fixture('handshake-rogue.mjs')];

describe('forms shaped by third-party servers (handshake era)', () => {
  it('shows a form with a root title (pydantic), and gives the title to the host', async () => {
    const ui = scripted({ 'Who are you?': { name: 'Ada' } });
    const client = await connect(rogue, { ui, era: 'handshake' });
    try {
      const reply = JSON.parse(textOf(await client.callTool('titled_form')));
      expect(reply).toEqual({ result: { action: 'accept', content: { name: 'Ada' } } });
      expect(ui.asked[0]).toMatchObject({
        title: 'Person',
        requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } } },
      });
      expect(ui.asked[0]?.requestedSchema).not.toHaveProperty('title');
    } finally {
      await client.close();
    }
  });

  it("shows FastMCP's multi-select whose items have an enum but no type", async () => {
    const ui = scripted({ 'Pick some': { value: ['b'] } });
    const client = await connect(rogue, { ui, era: 'handshake' });
    try {
      const reply = JSON.parse(textOf(await client.callTool('untyped_multi')));
      expect(reply).toEqual({ result: { action: 'accept', content: { value: ['b'] } } });
    } finally {
      await client.close();
    }
  });

  it('answers a form it cannot show with a short -32602 and a skipped event, not a schema dump', async () => {
    const log = eventLog();
    const ui = scripted({});
    const client = await connect(rogue, { ui, era: 'handshake', onEvent: log.onEvent });
    try {
      const reply = JSON.parse(textOf(await client.callTool('nested_form')));
      expect(reply.error.code).toBe(-32602);
      expect(reply.error.message).toMatch(/^Parley cannot show this question: the form is outside/);
      expect(reply.error.message.length).toBeLessThan(300);
      expect(ui.asked).toEqual([]);
      expect(log.lines()).toContain('1.1 skipped ?->error');
    } finally {
      await client.close();
    }
  });
});

describe('a URL the server requires again and again (-32042)', () => {
  it('backs off between retries and stops with a clear error after a few tries', async () => {
    const log = eventLog();
    const ui = scripted({
      'Open it': [{ action: 'accept' }, { action: 'accept' }, { action: 'accept' }, { action: 'accept' }],
    });
    const client = await connect(rogue, { ui, era: 'handshake', onEvent: log.onEvent });
    try {
      const started = Date.now();
      const failure = await client.callTool('url_forever').catch((error: unknown) => error);
      const requests = log.events.filter((event) => event.type === 'request').map((event) => event.at);
      expect(requests).toHaveLength(4);
      const gaps = requests.slice(1).map((at, index) => at - requests[index]!);
      // At least the backoff (200, 400, 800 ms; less a little, as Node times a timer from the start
      // of the loop turn): a busy machine only adds to a gap, so only lower bounds are asserted.
      for (const [index, gap] of gaps.entries()) {
        expect(gap, `gap ${index + 1}`).toBeGreaterThanOrEqual(200 * 2 ** index - 20);
      }
      expect(Date.now() - started).toBeLessThan(30_000); // it ends, on any load
      expect(failure).toMatchObject({ kind: 'round-limit' });
      expect((failure as Error).message).toBe(
        'handshake-rogue still requires the page at example.com after it was opened 3 times for tool "url_forever"; finish the step in the browser, then run the call again',
      );
    } finally {
      await client.close();
    }
  });
});

describe('two calls in flight over HTTP (handshake era)', () => {
  let http: HttpFixture;
  beforeAll(async () => {
    http = await startHttpServer();
  });
  afterAll(async () => {
    await http.stop();
  });

  it('names the call whose stream carried the question, not the oldest call', async () => {
    const { ui, stats } = watchfulUI({ 'Your name?': { name: 'Bo' }, 'Favourite color?': { color: 'blue' } });
    const client = await connect(http.url, { ui, era: 'handshake' });
    const slow = new AbortController();
    try {
      const first = client.callTool('slow', {}, { signal: slow.signal }).catch(() => 'stopped');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(textOf(await client.callTool('two_questions'))).toBe('Bo likes blue');
      expect(stats.contexts.map((context) => [context.call.name, context.callId])).toEqual([
        ['two_questions', 2],
        ['two_questions', 2],
      ]);
      slow.abort();
      expect(await first).toBe('stopped');
    } finally {
      await client.close();
    }
  });
});
