// Parley as client and host against the servers people run today: FastMCP 4.0 and the mcp Python SDK
// 2.3 (from interop/.venv) and the TypeScript SDK v1, over stdio and Streamable HTTP, on every era
// each one speaks.

import { fileURLToPath } from 'node:url';
import { type AskContext, connect, type ElicitationUI, type ParleyClient, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON, peer, type RunningPeer, requirePython, run, startHttpPeer } from './peers.js';

const PARLEY = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));

const textOf = (result: { content?: unknown }): string =>
  ((result.content as { text?: string }[] | undefined) ?? []).map((block) => block.text ?? '').join('');

/** A scripted host that also notes, for each question, the call it was shown under. */
function host(answers: Parameters<typeof scripted>[0]) {
  const inner = scripted(answers);
  const shown: { message: string; context: AskContext }[] = [];
  const ui: ElicitationUI = {
    modes: inner.modes,
    form: (request, context) => {
      shown.push({ message: request.message, context });
      return inner.form(request, context);
    },
    url: (request, inspection, context) => {
      shown.push({ message: request.message, context });
      return inner.url(request, inspection, context);
    },
    waitForUrl: (request, inspection, context) => inner.waitForUrl!(request, inspection, context),
  };
  return { ui, shown, asked: inner.asked };
}

/** Accept, decline and cancel, in that order, for three calls of `tool`. */
async function threeActions(client: ParleyClient, tool: string): Promise<string[]> {
  const texts: string[] = [];
  for (let i = 0; i < 3; i++) texts.push(textOf(await client.callTool(tool)));
  return texts;
}

/**
 * Two calls in flight, the slower one asking last: each gets its own answer. When the server sends the
 * question on the stream of the call's own POST (`attributed`), the host is also shown the right call;
 * on stdio, and for servers that send questions unrelated to a request (the TS SDK v1's
 * `server.elicitInput`), nothing on the wire says which call asks, and Parley names the oldest.
 */
async function twoInFlight(
  client: ParleyClient,
  shown: { message: string; context: AskContext }[],
  attributed: boolean,
) {
  const mark = shown.length;
  const [a, b] = await Promise.all([
    client.callTool('tagged', { tag: 'A', delay: 1 }),
    client.callTool('tagged', { tag: 'B', delay: 0 }),
  ]);
  expect([textOf(a), textOf(b)]).toEqual(['A: apple', 'B: banana']);
  if (!attributed) return;
  for (const { message, context } of shown.slice(mark)) {
    expect(message).toBe(`Question for ${(context.call.arguments as { tag: string }).tag}`);
  }
}

describe('FastMCP 4.0 server', () => {
  const command = (): string[] => [PYTHON, peer('fastmcp_server.py'), 'stdio'];
  let http: RunningPeer;
  beforeAll(async () => {
    requirePython();
    http = await startHttpPeer(PYTHON, [peer('fastmcp_server.py'), 'http']);
  });
  afterAll(async () => {
    await http?.stop();
  });
  const answers = {
    'Your profile': { name: 'Ada', age: 36, height: 1.65, subscribed: true, size: 'm' },
    'Pick toppings': { value: ['ham', 'olives'] },
    'Pick a size': { value: 'l' },
    'Go ahead?': [{ value: true }, { action: 'decline' }, { action: 'cancel' }],
    'Step 1: your name?': { value: 'Bo' },
    'Step 2: favourite color?': { value: 'blue' },
    'Confirm the defaults': {},
    'Question for A': { value: 'apple' },
    'Question for B': { value: 'banana' },
    'What is your name?': { name: 'Cy' },
  };

  it.each(['stdio', 'http'] as const)('on the handshake era over %s: every case', async (transport) => {
    const { ui, shown, asked } = host(answers);
    const target = transport === 'http' ? http.url : command();
    const client = await connect(target, { ui, era: 'handshake', stderr: 'ignore' });
    try {
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(textOf(await client.callTool('profile'))).toBe(
        '{"age": 36, "height": 1.65, "name": "Ada", "size": "m", "subscribed": true}',
      );
      // FastMCP's [["a", "b"]] multi-select: items.enum without items.type, read as strings.
      expect(textOf(await client.callTool('pick_many'))).toBe('["ham", "olives"]');
      expect(textOf(await client.callTool('pick_one'))).toBe('"l"');
      expect(await threeActions(client, 'confirm')).toEqual(['true', 'decline', 'cancel']);
      expect(textOf(await client.callTool('two_steps'))).toBe('Bo likes blue');
      // Nothing answered: Parley fills every default the form declares.
      expect(textOf(await client.callTool('with_defaults'))).toBe(
        '{"age": 36, "name": "Ada", "subscribed": true}',
      );
      await twoInFlight(client, shown, transport === 'http');
      expect(asked.find((record) => record.message === 'Pick toppings')?.requestedSchema).toEqual({
        type: 'object',
        properties: {
          value: { type: 'array', items: { enum: ['ham', 'cheese', 'olives'], type: 'string' } },
        },
        required: ['value'],
      });
    } finally {
      await client.close();
    }
  });

  it("on 2026-07-28 over HTTP: the guard pattern works, ctx.elicit fails with FastMCP's own error", async () => {
    const { ui } = host(answers);
    const client = await connect(http.url, { ui, stderr: 'ignore' });
    try {
      expect(client.protocolVersion).toBe('2026-07-28');
      expect(textOf(await client.callTool('guard_name'))).toBe('Hello, Cy!');
      const refused = await client.callTool('confirm');
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/unavailable on 2026-07-28 connections/);
    } finally {
      await client.close();
    }
  });
});

describe('mcp 2.3 Python SDK server (MCPServer, pydantic forms)', () => {
  const command = (): string[] => [PYTHON, peer('python_sdk_server.py'), 'stdio'];
  let http: RunningPeer;
  beforeAll(async () => {
    requirePython();
    http = await startHttpPeer(PYTHON, [peer('python_sdk_server.py'), 'http']);
  });
  afterAll(async () => {
    await http?.stop();
  });
  const answers = {
    'Your profile': { name: 'Ada', age: 36, height: 1.65, subscribed: true, size: 'm' },
    'Go ahead?': [{ text: 'yes' }, { action: 'decline' }, { action: 'cancel' }],
    'Step 1: your name?': { text: 'Bo' },
    'Step 2: favourite color?': { text: 'blue' },
    'Confirm the defaults': {},
    'Sign in to continue': { action: 'accept' },
    'Question for A': { text: 'apple' },
    'Question for B': { text: 'banana' },
  };

  it.each(['stdio', 'http'] as const)(
    'on the handshake era over %s: every case, URL mode included',
    async (transport) => {
      const { ui, shown, asked } = host(answers);
      const target = transport === 'http' ? http.url : command();
      const client = await connect(target, { ui, era: 'handshake', stderr: 'ignore' });
      try {
        expect(textOf(await client.callTool('profile'))).toBe(
          '{"age": 36, "height": 1.65, "name": "Ada", "size": "m", "subscribed": true}',
        );
        // pydantic puts a root title on every form: shown to the person, not refused.
        expect(asked[0]).toMatchObject({ title: 'Profile' });
        expect(await threeActions(client, 'confirm')).toEqual(['{"text": "yes"}', 'decline', 'cancel']);
        expect(textOf(await client.callTool('two_steps'))).toBe('Bo likes blue');
        expect(textOf(await client.callTool('with_defaults'))).toBe(
          '{"age": 36, "name": "Ada", "subscribed": true}',
        );
        expect(textOf(await client.callTool('sign_in'))).toBe('accept');
        expect(asked.find((record) => record.mode === 'url')).toMatchObject({
          url: 'https://auth.example.com/start',
        });
        await twoInFlight(client, shown, transport === 'http');
      } finally {
        await client.close();
      }
    },
  );

  it('offers 2026-07-28 on stdio, where its ctx.elicit has no way to ask', async () => {
    const { ui } = host(answers);
    // Pinned: under load its slow start can outlast the discover probe, and auto then picks 2025.
    const client = await connect(command(), { ui, era: 'modern', stderr: 'ignore' });
    try {
      expect(client.protocolVersion).toBe('2026-07-28');
      const failure = await client.callTool('confirm').catch((error: unknown) => error);
      expect(failure).toMatchObject({ kind: 'server' });
      expect((failure as Error).message).toMatch(/no back-channel for server-initiated requests/);
    } finally {
      await client.close();
    }
  });

  it('gets `parley` to say: try again with --era handshake', async () => {
    const line = `${PYTHON} ${peer('python_sdk_server.py')} stdio`;
    const result = await run(process.execPath, [PARLEY, 'call', line, 'confirm', '--era', 'modern']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(
      'parley: python-sdk-peer answered on 2026-07-28 that this tool needs the older handshake era; try again with --era handshake',
    );
  });
});

describe('TypeScript SDK v1 server (elicitInput)', () => {
  const command = (): string[] => [process.execPath, peer('ts-v1-server.mjs'), 'stdio'];
  let http: RunningPeer;
  beforeAll(async () => {
    http = await startHttpPeer(process.execPath, [peer('ts-v1-server.mjs'), 'http']);
  });
  afterAll(async () => {
    await http?.stop();
  });
  const profile = {
    name: 'Ada',
    email: 'ada@example.com',
    birthday: '1815-12-10',
    age: 36,
    height: 1.65,
    subscribed: true,
    size: 'm',
    legacy: 'y',
    toppings: ['ham'],
    extras: ['b'],
  };
  const answers = {
    'Your profile': profile,
    'Go ahead?': [{ ok: true }, { action: 'decline' }, { action: 'cancel' }],
    'Step 1: your name?': { name: 'Bo' },
    'Step 2: favourite color?': { color: 'blue' },
    'Confirm the defaults': {},
    'Sign in to continue': { action: 'accept' },
    'Question for A': { value: 'apple' },
    'Question for B': { value: 'banana' },
  };

  it.each(['stdio', 'http'] as const)(
    'on 2025-11-25 over %s: every field kind and every case',
    async (transport) => {
      const { ui, shown } = host(answers);
      const target = transport === 'http' ? http.url : command();
      const client = await connect(target, { ui, stderr: 'ignore' });
      try {
        expect([client.era, client.protocolVersion]).toEqual(['handshake', '2025-11-25']);
        expect(JSON.parse(textOf(await client.callTool('profile')))).toEqual(profile);
        expect(await threeActions(client, 'confirm')).toEqual(['{"ok":true}', 'decline', 'cancel']);
        expect(textOf(await client.callTool('two_steps'))).toBe('Bo likes blue');
        expect(JSON.parse(textOf(await client.callTool('with_defaults')))).toEqual({
          name: 'Ada',
          age: 36,
          size: 'm',
          subscribed: true,
        });
        expect(textOf(await client.callTool('sign_in'))).toBe('accept');
        await twoInFlight(client, shown, false);
      } finally {
        await client.close();
      }
    },
  );
});
