import { connect, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLog, type HttpFixture, startHttpServer, stdioServer, watchfulUI } from './support.js';

const textOf = (result: { content?: unknown }): string =>
  ((result.content as { text?: string }[] | undefined) ?? []).map((block) => block.text ?? '').join('');

// On the 2025 eras the server pushes elicitation/create over the session; the SDK fixture's tools are
// the same ones the modern tests use, served through the SDK's legacy shim.
describe.each(['stdio', 'http'] as const)('the handshake era over %s', (transport) => {
  let http: HttpFixture | undefined;
  const target = () => (transport === 'http' ? http!.url : stdioServer());

  beforeAll(async () => {
    if (transport === 'http') http = await startHttpServer();
  });
  afterAll(async () => {
    await http?.stop();
  });

  it('answers pushed questions one at a time, numbered as the call goes', async () => {
    const { ui, stats } = watchfulUI({ 'Your name?': { name: 'Bo' }, 'Favourite color?': { color: 'blue' } });
    const log = eventLog();
    const client = await connect(target(), { ui, era: 'handshake', onEvent: log.onEvent });
    try {
      expect(client.era).toBe('handshake');
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(textOf(await client.callTool('two_questions'))).toBe('Bo likes blue');
      expect(stats.mostOpen).toBe(1);
      expect(stats.contexts.map((context) => [context.round, context.era, context.call.name])).toEqual([
        [1, 'handshake', 'two_questions'],
        [2, 'handshake', 'two_questions'],
      ]);
      expect(log.lines().filter((line) => !line.includes('request'))).toEqual([
        '1.1 elicitation',
        '1.2 elicitation',
        '1.1 answers ?=accept',
        '1.2 answers ?=accept',
        '1.1 result isError=false',
      ]);
    } finally {
      await client.close();
    }
  });

  it('fills defaults and checks content the same way as on the modern era', async () => {
    const client = await connect(target(), {
      era: 'handshake',
      ui: scripted({
        'Tell us about yourself': {
          name: 'Ada',
          email: 'ada@example.com',
          website: 'https://ada.dev',
          birthday: '1815-12-10',
          meeting: '2026-07-28T10:00:00+02:00',
          age: 36,
          height: 1.65,
          plan: 'free',
          color: 'r',
          toppings: ['ham'],
        },
      }),
    });
    try {
      const content = JSON.parse(textOf(await client.callTool('profile')));
      expect(content).toMatchObject({ name: 'Ada', subscribe: true, size: 'm', toppings: ['ham'] });
    } finally {
      await client.close();
    }
  });

  it('answers -32602 to the server for a form outside the subset, without showing it', async () => {
    const ui = scripted({});
    const log = eventLog();
    const client = await connect(target(), { ui, era: 'handshake', onEvent: log.onEvent });
    try {
      const result = await client.callTool('impossible');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^the client refused: -32602 Parley cannot show this question: the form is outside/,
      );
      expect(ui.asked).toHaveLength(0);
      expect(log.lines()).toContain('1.1 skipped ?->error');
    } finally {
      await client.close();
    }
  });

  it('keeps the person on a URL flow until the server announces it finished', async () => {
    let waitSignal: AbortSignal | undefined;
    const inner = scripted({ 'Connect your account': { action: 'accept' } });
    const log = eventLog();
    const client = await connect(target(), {
      era: 'handshake',
      onEvent: log.onEvent,
      ui: {
        ...inner,
        waitForUrl: (_request, _inspection, context) => {
          waitSignal = context.signal;
          return new Promise(() => {});
        },
      },
    });
    try {
      expect(textOf(await client.callTool('legacy_sign_in'))).toBe('connected');
      expect(inner.asked[0]).toMatchObject({ mode: 'url', era: 'handshake', answer: { action: 'accept' } });
      expect(waitSignal?.aborted).toBe(true);
      expect(log.events.some((event) => event.type === 'url-complete')).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('stops the call when the person cancels while the server waits on the URL flow', async () => {
    const client = await connect(target(), {
      era: 'handshake',
      ui: scripted({ 'Connect your account': { action: 'accept', wait: 'cancel' } }),
    });
    try {
      const failure = await client.callTool('legacy_sign_in').catch((error: unknown) => error);
      expect(failure).toMatchObject({ kind: 'cancelled' });
      expect((failure as Error).message).toMatch(
        /^The person cancelled while fixture waited for the page at accounts\.example\.com/,
      );
    } finally {
      await client.close();
    }
  });

  it('gives a declined URL back to the server as decline', async () => {
    const client = await connect(target(), {
      era: 'handshake',
      ui: scripted({ 'Connect your account': { action: 'decline' } }),
    });
    try {
      const result = await client.callTool('legacy_sign_in');
      expect(result).toMatchObject({ isError: true });
      expect(textOf(result)).toBe('connect decline');
    } finally {
      await client.close();
    }
  });

  it('walks the person through a URL the server requires first (-32042), then retries the call', async () => {
    const ui = scripted({ 'Authorize first': { action: 'accept' } });
    const log = eventLog();
    const client = await connect(target(), { ui, era: 'handshake', onEvent: log.onEvent });
    try {
      expect(textOf(await client.callTool('needs_url'))).toBe('authorized');
      expect(ui.asked[0]).toMatchObject({
        mode: 'url',
        url: expect.stringMatching(/^https:\/\/auth\.example\.com\/start\?id=/),
      });
      expect(log.lines().filter((line) => line.endsWith('request'))).toEqual(['1.1 request', '1.2 request']);
    } finally {
      await client.close();
    }
  });

  it('does not retry when the person declines the required URL', async () => {
    const client = await connect(target(), {
      era: 'handshake',
      ui: scripted({ 'Authorize first': { action: 'decline' } }),
    });
    try {
      const failure = await client.callTool('needs_url').catch((error: unknown) => error);
      expect(failure).toMatchObject({ kind: 'declined' });
      expect((failure as Error).message).toBe(
        'tool "needs_url" on fixture needs a page opened first, and the person declined; the call was not retried',
      );
    } finally {
      await client.close();
    }
  });
});
