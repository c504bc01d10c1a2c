import { connect, type ParleyClient, ParleyError, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventLog,
  type HttpFixture,
  PROFILE_ANSWERS as PROFILE,
  startHttpServer,
  stdioServer,
  watchfulUI,
} from './support.js';

const textOf = (result: { content?: unknown }): string =>
  ((result.content as { text?: string }[] | undefined) ?? []).map((block) => block.text ?? '').join('');

describe.each(['stdio', 'http'] as const)('the modern era over %s', (transport) => {
  let http: HttpFixture | undefined;
  const target = () => (transport === 'http' ? http!.url : stdioServer());
  const open = (
    options: Omit<Parameters<typeof connect>[1], 'ui'> & { ui: Parameters<typeof connect>[1]['ui'] },
  ) => connect(target(), options);

  beforeAll(async () => {
    if (transport === 'http') http = await startHttpServer();
  });
  afterAll(async () => {
    await http?.stop();
  });

  it('negotiates 2026-07-28 and knows the server by its server info', async () => {
    const client = await open({ ui: scripted({}) });
    try {
      expect(client.era).toBe('modern');
      expect(client.protocolVersion).toBe('2026-07-28');
      expect(client.server).toEqual({ name: 'fixture', version: '1.0.0', title: 'Fixture Server' });
      expect((await client.listTools()).map((tool) => tool.name)).toContain('profile');
      expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual(['greeting']);
      expect((await client.listResources()).map((resource) => resource.uri)).toEqual(['secret://note']);
    } finally {
      await client.close();
    }
  });

  it('answers a form with every field kind and fills the declared defaults the person left empty', async () => {
    const ui = scripted({ profile: PROFILE });
    const client = await open({ ui });
    try {
      const result = await client.callTool('profile');
      expect(JSON.parse(textOf(result))).toEqual({ ...PROFILE, subscribe: true, size: 'm' });
      expect(ui.asked).toHaveLength(1);
      expect(ui.asked[0]).toMatchObject({
        key: 'profile',
        round: 1,
        era: 'modern',
        call: { kind: 'tool', name: 'profile' },
        server: { name: 'fixture' },
      });
    } finally {
      await client.close();
    }
  });

  it('puts questions that arrive together in front of the person one at a time, each with its context', async () => {
    const { ui, stats } = watchfulUI({ name: { name: 'Bo' }, color: { color: 'blue' } });
    const log = eventLog();
    const client = await open({ ui, onEvent: log.onEvent });
    try {
      const result = await client.callTool('two_questions', {});
      expect(textOf(result)).toBe('Bo likes blue');
      expect(stats.mostOpen).toBe(1);
      expect(stats.contexts.map((context) => [context.key, context.round, context.position])).toEqual([
        ['name', 1, { index: 1, of: 2 }],
        ['color', 1, { index: 2, of: 2 }],
      ]);
      expect(stats.contexts[0]?.call).toEqual({ kind: 'tool', name: 'two_questions', arguments: {} });
      expect(log.lines()).toEqual([
        '1.1 request',
        '1.1 input-required [name,color] state=null',
        '1.1 answers name=accept,color=accept',
        '1.2 request',
        '1.2 result isError=false',
      ]);
    } finally {
      await client.close();
    }
  });

  it('keeps questions of concurrent calls one at a time too, each naming its call', async () => {
    const { ui, stats } = watchfulUI({ name: { name: 'Bo' }, color: { color: 'red' }, profile: PROFILE });
    const requests: [number, string][] = [];
    const client = await open({
      ui,
      onEvent: (event) => {
        if (event.type === 'request') requests.push([event.callId, event.name]);
      },
    });
    try {
      const [two, profile] = await Promise.all([
        client.callTool('two_questions'),
        client.callTool('profile'),
      ]);
      expect(textOf(two)).toBe('Bo likes red');
      expect(JSON.parse(textOf(profile)).name).toBe('Ada');
      expect(stats.mostOpen).toBe(1);
      expect(stats.contexts).toHaveLength(3);
      // A question's callId is the callId of its call's events.
      const callOf = new Map(requests.map(([callId, name]) => [name, callId]));
      for (const context of stats.contexts) expect(context.callId).toBe(callOf.get(context.call.name));
    } finally {
      await client.close();
    }
  });

  it('drives several rounds, answering only the latest keys', async () => {
    const { ui, stats } = watchfulUI({ step1: { name: 'Cy' }, step2: { color: 'teal' } });
    const log = eventLog();
    const client = await open({ ui, onEvent: log.onEvent });
    try {
      expect(textOf(await client.callTool('multi_round'))).toBe('Cy picked teal');
      expect(stats.contexts.map((context) => `${context.key}@${context.round}`)).toEqual([
        'step1@1',
        'step2@2',
      ]);
      expect(log.lines()).toEqual([
        '1.1 request',
        '1.1 input-required [step1] state=null',
        '1.1 answers step1=accept',
        '1.2 request',
        `1.2 input-required [step2] state=${JSON.stringify({ name: 'Cy' }).length}`,
        '1.2 answers step2=accept',
        '1.3 request',
        '1.3 result isError=false',
      ]);
    } finally {
      await client.close();
    }
  });

  it('retries at once when the server sends only requestState', async () => {
    const log = eventLog();
    const client = await open({ ui: scripted({}), onEvent: log.onEvent });
    try {
      expect(textOf(await client.callTool('state_only'))).toBe('polled');
      expect(log.lines()).toContain('1.1 input-required [] state=6');
    } finally {
      await client.close();
    }
  });

  it('drives rounds for prompts and resources as well', async () => {
    const client = await open({ ui: scripted({ who: { name: 'Dee' }, pin: { pin: 1234 } }) });
    try {
      const prompt = await client.getPrompt('greeting');
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello Dee' });
      const resource = await client.readResource('secret://note');
      expect(resource.contents[0]).toMatchObject({ uri: 'secret://note', text: 'note for pin 1234' });
    } finally {
      await client.close();
    }
  });

  it('stops a call that keeps asking after maxRounds, keeping the last input_required result', async () => {
    const client = await open({ ui: scripted({ again: { ok: true } }), maxRounds: 3 });
    try {
      const failure = await client.callTool('loop').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ParleyError);
      expect(failure).toMatchObject({ kind: 'round-limit', server: 'fixture' });
      expect((failure as ParleyError).message).toBe(
        'fixture still asked for input after 3 rounds of tool "loop"; raise maxRounds if the server really needs more, or report a loop to its authors',
      );
      expect((failure as ParleyError).data).toMatchObject({
        resultType: 'input_required',
        inputRequests: { again: {} },
      });
    } finally {
      await client.close();
    }
  });

  it('sends decline and cancel to the server as the person chose them', async () => {
    const client = await open({ ui: scripted({ confirm: [{ action: 'decline' }, { action: 'cancel' }] }) });
    try {
      const declined = await client.callTool('guarded');
      expect(declined).toMatchObject({ isError: true });
      expect(textOf(declined)).toBe('The person chose decline; nothing was done');
      expect(textOf(await client.callTool('guarded'))).toBe('The person chose cancel; nothing was done');
    } finally {
      await client.close();
    }
  });

  it('inspects a URL before asking, opens nothing itself, and answers accept after the person finished', async () => {
    const { ui, stats, asked } = watchfulUI({ signin: { action: 'accept' } });
    const client = await open({ ui });
    try {
      const result = await client.callTool('sign_in', { url: 'https://xn--pple-43d.com/login' });
      expect(textOf(result)).toBe('sign-in accept');
      expect(asked[0]?.inspection?.warnings.map((warning) => warning.code)).toContain('punycode');
      expect(asked[0]?.inspection?.unicodeHost).toBe('аpple.com');
      expect(stats.contexts).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('declines a URL that is not allowed without asking for consent', async () => {
    const ui = scripted({ signin: { action: 'accept' } });
    const log = eventLog();
    const client = await open({ ui, onEvent: log.onEvent });
    try {
      const result = await client.callTool('sign_in', { url: 'http://accounts.example.com/login' });
      expect(textOf(result)).toBe('sign-in decline');
      expect(ui.asked[0]?.answer).toBe('refused');
      expect(log.lines()).toContain('1.1 skipped signin->decline');
    } finally {
      await client.close();
    }
  });

  it('answers cancel when the person stops waiting on a URL flow', async () => {
    const client = await open({ ui: scripted({ signin: { action: 'accept', wait: 'cancel' } }) });
    try {
      expect(textOf(await client.callTool('sign_in'))).toBe('sign-in cancel');
    } finally {
      await client.close();
    }
  });

  it('does not show a form outside the subset: it answers cancel and says why', async () => {
    const ui = scripted({});
    const log = eventLog();
    const client = await open({ ui, onEvent: log.onEvent });
    try {
      expect(textOf(await client.callTool('impossible'))).toBe('answered cancel');
      expect(ui.asked).toHaveLength(0);
      const skipped = log.events.find((event) => event.type === 'skipped');
      expect(skipped).toMatchObject({ key: 'code', answered: 'cancel' });
      expect(skipped && 'reason' in skipped && skipped.reason).toMatch(
        /minimum \(5\) is greater than maximum \(1\)/,
      );
    } finally {
      await client.close();
    }
  });

  it('declares only the modes the host shows, on every request', async () => {
    const client = await open({
      ui: scripted({ signin: { action: 'accept' } }, { modes: { form: false, url: true } }),
    });
    try {
      // The server sees no form mode, so it may not ask a form: it says so with -32021.
      const failure = await client.callTool('profile').catch((error: unknown) => error);
      expect(failure).toMatchObject({
        kind: 'server',
        code: -32021,
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      });
      expect(textOf(await client.callTool('sign_in'))).toBe('sign-in accept');
    } finally {
      await client.close();
    }
  });

  it('refuses to send content that does not fit the form, naming the question and the field', async () => {
    const client = await open({ ui: scripted({ profile: { ...PROFILE, age: 200 } }) });
    try {
      const failure = await client.callTool('profile').catch((error: unknown) => error);
      expect(failure).toMatchObject({ kind: 'invalid-answer' });
      expect((failure as Error).message).toMatch(
        /^The answer to "profile" \("Tell us about yourself"\) from fixture during tool "profile" does not fit the form \(age: Enter a whole number between 0 and 150\)/,
      );
    } finally {
      await client.close();
    }
  });

  it('fails a call clearly when a script has no answer', async () => {
    const client = await open({ ui: scripted({}) });
    try {
      await expect(client.callTool('two_questions')).rejects.toThrow(
        'No scripted answer for the question "name" ("Your name?") from fixture during tool "two_questions" (round 1); add an answer keyed by "name"',
      );
    } finally {
      await client.close();
    }
  });

  it('cancels a call from its signal while the question is on screen', async () => {
    let questionSignal: AbortSignal | undefined;
    const controller = new AbortController();
    const client = await open({
      ui: {
        modes: { form: true, url: false },
        form: (_request, context) => {
          questionSignal = context.signal;
          controller.abort(new Error('the person closed the app'));
          return new Promise(() => {});
        },
        url: async () => ({ action: 'cancel' }),
      },
    });
    try {
      const failure = await client
        .callTool('profile', {}, { signal: controller.signal })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ kind: 'cancelled' });
      expect(questionSignal?.aborted).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('answers cancel when a question stays unanswered past questionTimeoutMs', async () => {
    let questionSignal: AbortSignal | undefined;
    const client = await open({
      questionTimeoutMs: 100,
      ui: {
        modes: { form: true, url: false },
        form: (_request, context) => {
          questionSignal = context.signal;
          return new Promise(() => {});
        },
        url: async () => ({ action: 'cancel' }),
      },
    });
    try {
      expect(textOf(await client.callTool('profile'))).toBe('profile cancel');
      expect(questionSignal?.aborted).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('reports a tool error as a result and a server error as a ParleyError naming the server', async () => {
    const client: ParleyClient = await open({ ui: scripted({}) });
    try {
      expect(await client.callTool('fail')).toMatchObject({ isError: true });
      expect(textOf(await client.callTool('add', { a: 2, b: 3 }))).toBe('5');
      const failure = await client.callTool('no_such_tool').catch((error: unknown) => error);
      expect(failure).toMatchObject({ kind: 'server', server: 'fixture' });
      expect((failure as Error).message).toMatch(
        /^fixture answered with error -32602 during tool "no_such_tool"/,
      );
    } finally {
      await client.close();
    }
  });
});
