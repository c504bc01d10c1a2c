import { type TestClient, testClient } from '@parley/client/testing';
import type { RequestedSchema } from '@parley/core/form';
import { builtInProfile, type HostProfile } from '@parley/core/hosts';
import {
  ask,
  createServer,
  input,
  inputRequired,
  type QuestionInput,
  type ServerOptions,
} from '@parley/server';
import { describe, expect, it } from 'vitest';

// Every rule of the host profiles, against the host's emulator (testClient({ host })): with the
// profiles (the default) the host is never sent what it cannot show and the tool gets the typed
// value the person meant; with them off (hosts: false) the emulator shows the very problem the rule
// is there for. Both eras; 2025-11-25 and older is what these hosts speak.

const ERAS = ['handshake', 'modern'] as const;

/**
 * For the hosts here that cannot be asked in-band: a real one carries no resume token back, so an
 * anonymous 2026-07-28 call of theirs parks by its address only where the author opts in (testClient's
 * in-process endpoint gives every caller one address: one host at a time here).
 */
const PAGES_BY_ADDRESS = { questionPages: { anonymousByAddress: true } } as const;

/** A server with one tool that asks `question` and returns what ctx.elicit gave, as JSON. */
function asking(question: QuestionInput, options: Partial<ServerOptions> = {}) {
  const server = createServer({ name: 'desk', version: '1.0.0', ...options });
  server.tool('ask', { description: 'Asks one question' }, async (_args, ctx) => {
    const answer = await ctx.elicit(
      'What should the test tool book? (one question of this suite)',
      question,
      { key: 'q' },
    );
    return JSON.stringify(answer);
  });
  return server;
}

function textOf(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/** Calls `ask` as `host` and returns what the tool got, and every problem the host had. */
async function askAs(
  host: string | HostProfile,
  era: 'handshake' | 'modern',
  question: QuestionInput,
  answers: Parameters<typeof testClient>[1] extends infer O
    ? O extends { answers?: infer A }
      ? A
      : never
    : never,
  options: Partial<ServerOptions> = {},
): Promise<{ got: unknown; problems: string[]; client: TestClient; protocolVersion: string }> {
  const client = await testClient(asking(question, options), { host, era, answers });
  try {
    const text = textOf(await client.callTool('ask'));
    let got: unknown = text;
    try {
      got = JSON.parse(text);
    } catch {}
    const problems = client.host!.questions.flatMap((asked) => asked.problems);
    return { got, problems, client, protocolVersion: client.protocolVersion };
  } finally {
    await client.close();
  }
}

describe.each(ERAS)('host profiles on the %s era', (era) => {
  it('Codex: numbers are asked as text with the range in words, and come back as numbers', async () => {
    const boxes = ask.form({ boxes: ask.integer({ title: 'Boxes', min: 1, max: 3 }) });
    const lowered = await askAs('codex-mcp-client', era, boxes, { q: { boxes: 2 } });
    expect(lowered.problems).toEqual([]);
    expect(lowered.got).toEqual({ action: 'accept', value: { boxes: 2 } });
    const sent = lowered.client.host!.questions[0]!.requestedSchema as {
      properties: Record<string, unknown>;
    };
    expect(sent.properties.boxes).toEqual({
      type: 'string',
      title: 'Boxes',
      description: 'Enter a whole number from 1 to 3.',
    });
    // Without the profile Codex cannot show the field: the person can only approve, and the
    // empty answer is asked again until the call gives up.
    const raw = await askAs('codex-mcp-client', era, boxes, { q: { boxes: 2 } }, { hosts: false });
    expect(raw.problems[0]).toMatch(/field boxes \(integer\) cannot be shown/);
    expect(raw.got).not.toEqual({ action: 'accept', value: { boxes: 2 } });
  });

  it('Codex: text that is not a number in range is asked again with the reason', async () => {
    const boxes = ask.integer({ title: 'Boxes', min: 1, max: 3 });
    const { got, client } = await askAs('codex', era, boxes, {
      q: [{ value: 'lots' }, { value: 9 }, { value: ' 3 ' }],
    });
    expect(got).toEqual({ action: 'accept', value: 3 });
    const messages = client.host!.questions.map((asked) => asked.message);
    expect(messages[1]).toMatch(/whole number/);
    expect(messages[2]).toMatch(/between 1 and 3/);
  });

  it('Codex: a root key it rejects is left out', async () => {
    const form: RequestedSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { name: { type: 'string', title: 'Name' } },
      required: ['name'],
    };
    const lowered = await askAs('codex-mcp-client', era, form, { q: { name: 'Ada' } });
    expect(lowered.problems).toEqual([]);
    expect(lowered.got).toEqual({ action: 'accept', value: { name: 'Ada' } });
    if (era === 'handshake') {
      const raw = await askAs('codex-mcp-client', era, form, { q: { name: 'Ada' } }, { hosts: false });
      expect(raw.problems).toEqual(['root key $schema rejects the whole question']);
    }
  });

  it('Codex and Goose: a multi-select is asked as one yes/no per option', async () => {
    const tags = ask.many({ rust: 'Rust', go: 'Go', zig: 'Zig' }, { title: 'Tags', min: 1, max: 2 });
    for (const host of ['codex-mcp-client', 'goose-desktop']) {
      const lowered = await askAs(host, era, tags, { q: { value: ['go', 'zig'] } });
      expect(lowered.problems).toEqual([]);
      expect(lowered.got).toEqual({ action: 'accept', value: ['go', 'zig'] });
      const sent = lowered.client.host!.questions[0]!.requestedSchema as { properties: object };
      expect(Object.keys(sent.properties)).toEqual(['value.rust', 'value.go', 'value.zig']);
      const raw = await askAs(host, era, tags, { q: { value: ['go', 'zig'] } }, { hosts: false });
      if (host === 'codex-mcp-client' && era === 'handshake')
        // Codex speaks 2025-06-18, which has no multi-select: without the profile it goes to a page.
        expect(raw.client.host!.questions).toEqual([]);
      else
        expect(raw.problems[0]).toMatch(/field value \(many\) (cannot be shown|is shown as a free text box)/);
    }
    // The server still checks what comes back: three where at most two may be chosen.
    const { client, got } = await askAs('codex', era, tags, {
      q: [{ value: ['rust', 'go', 'zig'] }, { value: ['rust'] }],
    });
    expect(got).toEqual({ action: 'accept', value: ['rust'] });
    expect(client.host!.questions[1]!.message).toMatch(/1 and 2|up to 2|at most 2/i);
  });

  it('Codex: a multi-select with more options than yes/no fields can carry goes to a page', async () => {
    const options = Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((key) => [key, key.toUpperCase()]),
    );
    const client = await testClient(asking(ask.many(options), PAGES_BY_ADDRESS), {
      host: 'codex-mcp-client',
      era,
      answers: { q: { value: ['c'] } },
    });
    try {
      const parked = await client.callTool('ask');
      expect(textOf(parked)).toMatch(/Answer here: http:\/\/127\.0\.0\.1:\d+\/parley\/questions\//);
      expect(client.host!.questions).toEqual([]);
      expect(await client.answerPages(parked)).toBe(1);
      expect(JSON.parse(textOf(await client.callTool('ask')))).toEqual({ action: 'accept', value: ['c'] });
    } finally {
      await client.close();
    }
  });

  it('Goose: a titled choice is asked as a plain list, not a free text box', async () => {
    const speed = ask.choice({ std: 'Standard (3 days)', exp: 'Express (1 day)' }, { title: 'Speed' });
    const lowered = await askAs('goose-desktop', era, speed, { q: { value: 'exp' } });
    expect(lowered.problems).toEqual([]);
    expect(lowered.got).toEqual({ action: 'accept', value: 'exp' });
    expect(lowered.client.host!.questions[0]!.requestedSchema).toMatchObject({
      properties: { value: { type: 'string', enum: ['std', 'exp'] } },
    });
    const raw = await askAs('goose-desktop', era, speed, { q: { value: 'exp' } }, { hosts: false });
    expect(raw.problems).toEqual(['field value (choice) is shown as a free text box']);
  });

  it('Goose: the "" and the minimum it invents for fields nobody touched come back empty', async () => {
    const form = ask.form({
      name: ask.text({ title: 'Name' }),
      note: ask.text({ title: 'Note', optional: true }),
      floor: ask.integer({ title: 'Floor', min: 1, max: 40, optional: true }),
    });
    const lowered = await askAs('goose-desktop', era, form, { q: { name: 'Ada' } });
    expect(lowered.problems).toEqual([]);
    expect(lowered.got).toEqual({ action: 'accept', value: { name: 'Ada' } });
    const raw = await askAs('goose-desktop', era, form, { q: { name: 'Ada' } }, { hosts: false });
    expect(raw.got).toEqual({ action: 'accept', value: { name: 'Ada', note: '', floor: 1 } });
    // A floor the person did give still comes back as a number.
    const given = await askAs('goose', era, form, { q: { name: 'Ada', floor: 1 } });
    expect(given.got).toEqual({ action: 'accept', value: { name: 'Ada', floor: 1 } });
  });

  it('a host that pre-fills defaults: an optional field the person cleared stays empty', async () => {
    const form = ask.form({
      name: ask.text({ title: 'Name' }),
      note: ask.text({ title: 'Note for the courier', default: 'Leave at the door', optional: true }),
    });
    for (const host of ['claude-code', 'mcp-inspector', 'fast-agent-mcp']) {
      const cleared = await askAs(host, era, form, { q: { name: 'Ada', note: null } });
      expect(cleared.got).toEqual({ action: 'accept', value: { name: 'Ada' } });
      const kept = await askAs(host, era, form, { q: { name: 'Ada' } });
      expect(kept.got).toEqual({ action: 'accept', value: { name: 'Ada', note: 'Leave at the door' } });
      // Before host profiles: the default the person removed came back.
      const raw = await askAs(host, era, form, { q: { name: 'Ada', note: null } }, { hosts: false });
      expect(raw.got).toEqual({ action: 'accept', value: { name: 'Ada', note: 'Leave at the door' } });
    }
  });

  it('a host that does not pre-fill: a default the person never saw is applied on the server', async () => {
    const form = ask.form({
      name: ask.text({ title: 'Name' }),
      wrap: ask.boolean({ title: 'Gift wrap', default: false, optional: true }),
      note: ask.text({ title: 'Note', default: 'Leave at the door', optional: true }),
    });
    // VS Code shows no default (and drops false ones); Codex shows no text default.
    for (const host of ['Visual Studio Code', 'codex-mcp-client']) {
      const { got } = await askAs(host, era, form, { q: { name: 'Ada' } });
      expect(got).toEqual({
        action: 'accept',
        value: { name: 'Ada', wrap: false, note: 'Leave at the door' },
      });
    }
    // Codex pre-selects a yes/no default: one the person cleared stays empty.
    const { got } = await askAs('codex', era, form, { q: { name: 'Ada', wrap: null } });
    expect(got).toEqual({ action: 'accept', value: { name: 'Ada', note: 'Leave at the door' } });
  });

  it('VS Code: the null of an optional number left empty is an empty field', async () => {
    const form = ask.form({ name: ask.text(), floor: ask.integer({ optional: true }) });
    const { got, client } = await askAs('Visual Studio Code', era, form, { q: { name: 'Ada' } });
    expect(client.host!.questions[0]!.reply).toEqual({
      result: { action: 'accept', content: { name: 'Ada', floor: null } },
    });
    expect(got).toEqual({ action: 'accept', value: { name: 'Ada' } });
  });

  it('Codex: an empty form is not accepted without the person', async () => {
    const empty = ask.form({});
    const raw = await askAs('codex-mcp-client', era, empty, { q: { action: 'decline' } }, { hosts: false });
    expect(raw.problems).toEqual(['a form with no fields is accepted without asking the person']);
    expect(raw.got).toEqual({ action: 'accept', value: {} });
    const lowered = await askAs('codex-mcp-client', era, empty, { q: { action: 'decline' } });
    expect(lowered.problems).toEqual([]);
    expect(lowered.got).toEqual({ action: 'decline' });
    const confirmed = await askAs('codex-mcp-client', era, empty, { q: {} });
    expect(confirmed.got).toEqual({ action: 'accept', value: {} });
    // Goose shows an empty form with a lone Accept: the person cannot decline it.
    const goose = await askAs('goose-desktop', era, empty, { q: { action: 'decline' } }, { hosts: false });
    expect(goose.problems).toEqual([
      'a form with no fields offers only Accept: the person could not decline',
    ]);
    expect((await askAs('goose-desktop', era, empty, { q: { action: 'decline' } })).got).toEqual({
      action: 'decline',
    });
  });

  it('Codex: formats it does not check are checked on the server', async () => {
    const email = ask.email({ title: 'Email' });
    const { got, client } = await askAs('codex', era, email, {
      q: [{ value: 'ada at example' }, { value: 'ada@example.com' }],
    });
    expect(got).toEqual({ action: 'accept', value: 'ada@example.com' });
    expect(client.host!.questions[1]!.message).toMatch(/email address/);
  });

  it('mcp-use, fast-agent, Claude Code before 2.1.108: a page goes by link, not by a URL mode they cannot be trusted with', async () => {
    for (const host of ['mcp-use', 'fast-agent-mcp', 'claude-code-before-2.1.108']) {
      const client = await testClient(asking(ask.secret({ title: 'API key' }), PAGES_BY_ADDRESS), {
        host,
        era,
        answers: { q: { value: 'sk-test-1234567890' } },
      });
      try {
        const parked = await client.callTool('ask');
        expect(textOf(parked)).toMatch(/Answer here:/);
        expect(client.host!.questions).toEqual([]);
        await client.answerPages(parked);
        expect(textOf(await client.callTool('ask'))).toMatch(/"action":"accept"/);
      } finally {
        await client.close();
      }
    }
    // Without the profile the page goes out in URL mode.
    const client = await testClient(asking(ask.secret({ title: 'API key' }), { hosts: false }), {
      host: 'mcp-use',
      era,
      answers: { q: { value: 'sk-test-1234567890' } },
    });
    try {
      await client.callTool('ask');
      expect(client.host!.questions.map((asked) => asked.mode)).toEqual(['url']);
    } finally {
      await client.close();
    }
  });

  it('guard style: the questions of inputRequired() are lowered too, and their answers typed', async () => {
    const server = createServer({ name: 'desk', version: '1.0.0' });
    const questions = { boxes: input.elicit('How many boxes?', ask.integer({ min: 1, max: 3 })) };
    server.tool('guarded', { description: 'Asks in guard style' }, async (_args, ctx) => {
      const { boxes } = await ctx.answers(questions);
      if (!boxes) return inputRequired(questions);
      return JSON.stringify(boxes);
    });
    const client = await testClient(server, { host: 'codex', era, answers: { boxes: { value: 3 } } });
    try {
      expect(JSON.parse(textOf(await client.callTool('guarded')))).toEqual({ action: 'accept', value: 3 });
      expect(client.host!.questions.flatMap((asked) => asked.problems)).toEqual([]);
      expect(client.host!.questions[0]!.requestedSchema).toMatchObject({
        properties: { value: { type: 'string' } },
      });
    } finally {
      await client.close();
    }
  });

  it('a declaration the profile distrusts: the question goes down the ladder to a page', async () => {
    const distrusted: HostProfile = {
      ...builtInProfile('fast-agent')!,
      id: 'auto-cancel-agent',
      names: ['fast-agent-mcp'],
      forms: { value: 'distrusted', sources: ['FA1'], seenOn: 'auto-cancel mode' },
    };
    const client = await testClient(
      asking(ask.text({ title: 'Name' }), { ...PAGES_BY_ADDRESS, hosts: { profiles: [distrusted] } }),
      {
        host: 'fast-agent-mcp',
        era,
        answers: { q: { value: 'Ada' } },
      },
    );
    try {
      const parked = await client.callTool('ask');
      expect(client.host!.questions).toEqual([]);
      await client.answerPages(parked);
      expect(JSON.parse(textOf(await client.callTool('ask')))).toEqual({ action: 'accept', value: 'Ada' });
    } finally {
      await client.close();
    }
  });

  it('a host no profile knows, or one keyed on a shared name, is sent the form unchanged', async () => {
    const form = ask.form({ boxes: ask.integer({ min: 1, max: 3 }), tags: ask.many({ a: 'A', b: 'B' }) });
    for (const name of ['some-new-host', 'mcp']) {
      const client = await testClient(asking(form), {
        era,
        clientInfo: { name, version: '0.1.0' },
        answers: { q: { boxes: 2, tags: ['a'] } },
      });
      try {
        expect(JSON.parse(textOf(await client.callTool('ask')))).toEqual({
          action: 'accept',
          value: { boxes: 2, tags: ['a'] },
        });
        expect(client.asked[0]!.requestedSchema).toEqual(
          (await import('@parley/core/form')).prepareQuestion(form).schema,
        );
      } finally {
        await client.close();
      }
    }
  });
});

describe('per-host time limits (2025 eras)', () => {
  it('Claude Code: a question unanswered near the host’s limit moves to a page before the host gives up', async () => {
    const quick: HostProfile = {
      ...builtInProfile('claude-code')!,
      wait: { value: { kind: 'limit', limitMs: 2_000, from: 'call' }, sources: ['C5'], seenOn: 'test' },
    };
    const slowPerson = { q: () => new Promise<never>(() => {}) };
    const server = asking(ask.text({ title: 'Name' }), { hosts: { profiles: [quick] } });
    const client = await testClient(server, { host: quick, answers: slowPerson });
    try {
      const parked = await client.callTool('ask');
      expect(textOf(parked)).toMatch(/Answer here:/);
      expect(client.host!.questions).toEqual([]);
    } finally {
      await client.close();
    }
    // Without the profile the host gives up on the call first.
    const raw = await testClient(asking(ask.text({ title: 'Name' }), { hosts: false }), {
      host: quick,
      answers: slowPerson,
    });
    try {
      await expect(raw.callTool('ask')).rejects.toThrow(/timed out|timeout/i);
    } finally {
      await raw.close();
    }
  });
});

describe('what the emulators send', () => {
  it('VS Code: URL mode answers accept as the page opens; the server waits for the page itself', async () => {
    const { got, client } = await askAs('Visual Studio Code', 'handshake', ask.secret({ title: 'API key' }), {
      q: { value: 'sk-test-1234567890' },
    });
    expect(client.host!.questions.map((asked) => [asked.mode, asked.reply])).toEqual([
      ['url', { result: { action: 'accept' } }],
    ]);
    expect(got).toMatchObject({ action: 'accept' });
  });

  it('Goose negotiates 2025-03-26 and is still asked in-band', async () => {
    const client = await testClient(asking(ask.text()), {
      host: 'goose-desktop',
      answers: { q: { value: 'x' } },
    });
    try {
      expect(client.protocolVersion).toBe('2025-03-26');
      expect(JSON.parse(textOf(await client.callTool('ask')))).toEqual({ action: 'accept', value: 'x' });
    } finally {
      await client.close();
    }
  });

  it('Codex speaks 2025-06-18: a titled choice goes as enum and enumNames, which it shows', async () => {
    const { got, client, protocolVersion } = await askAs(
      'codex-mcp-client',
      'handshake',
      ask.choice({ a: 'Alpha', b: 'Beta' }),
      { q: { value: 'b' } },
    );
    expect(protocolVersion).toBe('2025-06-18');
    expect(client.host!.questions[0]!.requestedSchema).toMatchObject({
      properties: { value: { enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] } },
    });
    expect(got).toEqual({ action: 'accept', value: 'b' });
  });
});
