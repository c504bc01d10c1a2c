import type { ServerContext } from '@modelcontextprotocol/server';
import { ask } from '@parley/core/form';
import { describe, expect, it } from 'vitest';
import { CallSecrets } from '../ask/call-secrets.js';
import { ReplayEngine } from '../eras/replay-engine.js';
import { NO_TASKS } from '../eras/task-start.js';
import { ElicitationUnavailable, SecretInFormError, ToolError } from '../errors.js';
import { FlowKit } from '../flows/flow-kit.js';
import { firstRoundState } from '../state/round-state.js';
import { type ContextFacts, createContext, SUSPEND } from './parley-context.js';
import { NotificationSequence } from './side-channels.js';

const sdk = { mcpReq: { signal: new AbortController().signal } } as unknown as ServerContext;

const kit = new FlowKit(
  'shop',
  { publicUrl: 'https://shop.example', session: () => undefined, signIn: () => '/signin' },
  () => {},
);
kit.register('account', () => new Response('page'));

function context(clientCapabilities: unknown, user?: string, flows?: FlowKit) {
  const engine = new ReplayEngine(firstRoundState(), undefined, { maxRounds: 20, maxTries: 3 });
  const facts: ContextFacts = {
    era: 'modern',
    protocolVersion: '2026-07-28',
    user: user === undefined ? undefined : { id: user },
    clientCapabilities,
    clientInfo: { name: 'test' },
    sdk,
    flows,
    task: NO_TASKS,
    transport: 'http',
    pages: undefined,
    call: { method: 'tools/call', target: 'test', args: {} },
    secrets: new CallSecrets(),
  };
  return { ctx: createContext(facts, engine), engine };
}

describe('createContext', () => {
  it('lets a handler take its methods apart (each is bound to its ctx)', async () => {
    const { can, elicitUrl } = context({ elicitation: { form: {} } }).ctx;
    expect([can('form'), can('url')]).toEqual([true, false]);
    await expect(elicitUrl('Open this', 'https://example.com')).rejects.toThrow(ElicitationUnavailable);
  });

  it('reports what the client declared on this request', () => {
    const { ctx } = context({ elicitation: {}, sampling: {} });
    expect([ctx.can('form'), ctx.can('url'), ctx.can('sampling'), ctx.can('roots')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });

  it('refuses to send a mode the client did not declare, with a catchable error', async () => {
    const { ctx } = context({ elicitation: { form: {} } });
    await expect(ctx.elicitUrl('Open this', 'https://example.com')).rejects.toThrow(ElicitationUnavailable);
    await expect(ctx.sample({ messages: [], maxTokens: 1 })).rejects.toMatchObject({
      requiredCapabilities: { sampling: {} },
    });
    const urlOnly = context({ elicitation: { url: {} } }).ctx;
    await expect(urlOnly.elicit('Name?', ask.text())).rejects.toThrow(/did not declare elicitation/);
  });

  it('refuses a form that asks for a secret, pointing to ask.secret()', async () => {
    const { ctx } = context({ elicitation: {} });
    const asking = ctx.elicit('Sign in', ask.form({ user: ask.text(), password: ask.text() }));
    await expect(asking).rejects.toThrow(SecretInFormError);
    await expect(ctx.elicit('Sign in', ask.form({ apiKey: ask.text() }))).rejects.toThrow(/ask\.secret\(\)/);
  });

  it('numbers questions q1, q2, ... unless a key is given', async () => {
    const { ctx, engine } = context({ elicitation: {} });
    await expect(ctx.elicit('First?', ask.text(), { key: 'first' })).rejects.toBe(SUSPEND);
    expect(Object.keys(engine.suspension!.inputRequests)).toEqual(['first']);
    const other = context({ elicitation: {} });
    await expect(other.ctx.elicit('First?', ask.text())).rejects.toBe(SUSPEND);
    expect(Object.keys(other.engine.suspension!.inputRequests)).toEqual(['q1']);
  });

  it('needs configured flows and a verified user for a URL flow', async () => {
    await expect(
      context({ elicitation: { url: {} } }, 'alice').ctx.elicitUrl('Connect', { flow: 'x' }),
    ).rejects.toThrow(/createServer\(\{ flows/);
    const anonymous = context({ elicitation: { url: {} } }, undefined, kit).ctx;
    await expect(anonymous.elicitUrl('Connect', { flow: 'account' })).rejects.toThrow(ToolError);
    const alice = context({ elicitation: { url: {} } }, 'alice', kit);
    await expect(alice.ctx.elicitUrl('Connect', { flow: 'account' }, { key: 'link' })).rejects.toBe(SUSPEND);
    const request = alice.engine.suspension!.inputRequests.link as { params: { mode: string; url: string } };
    expect(request.params.mode).toBe('url');
    expect(request.params.url).toMatch(/^https:\/\/shop\.example\/connect\/[A-Za-z0-9_-]{43}$/);
  });
  it('counts the notifications up to the question a round stops at, not those sent while it unwinds', async () => {
    const logged: unknown[] = [];
    const logging = {
      mcpReq: {
        signal: new AbortController().signal,
        log: async (_level: string, data: unknown) => logged.push(data),
      },
    } as unknown as ServerContext;
    const notifications = new NotificationSequence(1);
    const engine = new ReplayEngine(firstRoundState(), undefined, { maxRounds: 20, maxTries: 3 });
    const ctx = createContext(
      {
        era: 'modern',
        protocolVersion: '2026-07-28',
        user: undefined,
        clientCapabilities: { elicitation: {} },
        clientInfo: undefined,
        sdk: logging,
        flows: undefined,
        task: NO_TASKS,
        notifications,
        transport: 'http',
        pages: undefined,
        call: { method: 'tools/call', target: 'test', args: {} },
        secrets: new CallSecrets(),
      },
      engine,
    );
    await ctx.log('info', 'sent by the last round');
    await ctx.log('info', 'new in this round');
    try {
      await expect(ctx.elicit('Name?', ask.text())).rejects.toBe(SUSPEND);
    } finally {
      await ctx.log('info', 'unwinding');
    }
    expect(logged).toEqual(['new in this round', 'unwinding']);
    expect(notifications.reached).toBe(2);
  });
});
