import type { ServerContext } from '@modelcontextprotocol/server';
import { ask } from '@parley/core/form';
import { describe, expect, it } from 'vitest';
import { type ContextFacts, createContext, SUSPEND } from '../context/parley-context.js';
import { ReplayEngine } from '../eras/replay-engine.js';
import { NO_TASKS } from '../eras/task-start.js';
import { AuthorError, SecretInFormError } from '../errors.js';
import { firstRoundState } from '../state/round-state.js';
import { CallSecrets } from './call-secrets.js';
import { EmptyMessageError, UnsafeUrlError, unsafeUrlParts } from './guardrails.js';
import { input } from './input.js';
import { formKind } from './kinds/form.js';

const sdk = { mcpReq: { signal: new AbortController().signal } } as unknown as ServerContext;

function context() {
  const engine = new ReplayEngine(firstRoundState(), undefined, { maxRounds: 20, maxTries: 3 });
  const facts: ContextFacts = {
    era: 'modern',
    protocolVersion: '2026-07-28',
    user: undefined,
    clientCapabilities: { elicitation: { form: {}, url: {} } },
    clientInfo: undefined,
    sdk,
    flows: undefined,
    task: NO_TASKS,
    transport: 'http',
    pages: undefined,
    call: { method: 'tools/call', target: 'test', args: {} },
    secrets: new CallSecrets(),
  };
  return createContext(facts, engine);
}

describe('guardrails on what a handler asks', () => {
  it('refuses a form whose message asks for a secret', async () => {
    const asking = context().elicit('Please paste your GitHub API key', ask.text());
    await expect(asking).rejects.toThrow(SecretInFormError);
    await expect(context().elicit('Please paste your GitHub API key', ask.text())).rejects.toThrow(
      /message \("Please paste your GitHub API key"\) asks for a key.*ask\.secret\(\).*\{ mentionsSecret: true \}/,
    );
    await expect(context().elicit('Enter the 6-digit code we texted you', ask.text())).rejects.toThrow(
      /asks for a PIN or one-time code/,
    );
  });

  it('judges a message the same the hundredth time as the first, past the cache of judged messages', async () => {
    const long = `${'Some context about your order. '.repeat(20)}Please paste your GitHub API key`;
    for (let round = 0; round < 3; round++) {
      await expect(context().elicit(long, ask.text())).rejects.toThrow(SecretInFormError);
    }
    // More distinct messages than the cache holds: the cache is cleared, and judging goes on.
    for (let index = 0; index < 600; index++) {
      await expect(context().elicit(`Which colour for box ${index}?`, ask.text())).rejects.toBe(SUSPEND);
    }
    await expect(context().elicit('Please paste your GitHub API key', ask.text())).rejects.toThrow(
      SecretInFormError,
    );
  });

  it('sends a message that only mentions a secret', async () => {
    await expect(context().elicit('Send you a password reset link?', ask.boolean())).rejects.toBe(SUSPEND);
    await expect(context().elicit('Did you forget your password?', ask.boolean())).rejects.toBe(SUSPEND);
  });

  it('takes the author at their word with { mentionsSecret: true }, and still checks the fields', async () => {
    // The guardrail reads this as a label for the key; its author knows it only mentions one.
    const message = 'Your API key, the one ending in 1234, will be rotated. Rotate it now?';
    await expect(context().elicit(message, ask.boolean())).rejects.toThrow(SecretInFormError);
    await expect(context().elicit(message, ask.boolean(), { mentionsSecret: true })).rejects.toBe(SUSPEND);
    const withSecretField = ask.form({ new_key: ask.text({ title: 'New API key' }) });
    await expect(context().elicit(message, withSecretField, { mentionsSecret: true })).rejects.toThrow(
      /asks for 'new_key' \(a key\).*ask\.secret\(\)/,
    );
  });

  it('takes the override in a batch too, through input.elicit', async () => {
    const message = 'Your API key, the one ending in 1234, will be rotated. Rotate it now?';
    await expect(context().elicitAll({ rotate: input.elicit(message, ask.boolean()) })).rejects.toThrow(
      SecretInFormError,
    );
    await expect(
      context().elicitAll({ rotate: input.elicit(message, ask.boolean(), { mentionsSecret: true }) }),
    ).rejects.toBe(SUSPEND);
    expect(input.elicit('Go?', ask.boolean())).toEqual({
      kind: 'form',
      message: 'Go?',
      question: ask.boolean(),
    });
  });

  it('refuses empty and blank messages, on forms and URLs', async () => {
    await expect(context().elicit('', ask.text())).rejects.toThrow(EmptyMessageError);
    await expect(context().elicit('   ', ask.text())).rejects.toThrow(/needs a message/);
    await expect(context().elicitUrl('', 'https://example.com/start')).rejects.toThrow(EmptyMessageError);
    expect(new EmptyMessageError('form')).toBeInstanceOf(AuthorError);
  });

  it.each([
    ['https://user:pw@example.com/', 'credentials in its user-info part (user:password@)'],
    ['https://example.com/cb?access_token=abc', "a parameter 'access_token' (a token)"],
    ['https://example.com/cb?token=abc', "a parameter 'token' (a token)"],
    ['https://example.com/cb?session=abc', "a parameter 'session' (a credential)"],
    ['https://example.com/cb?api_key=abc', "a parameter 'api_key' (a key)"],
    ['https://example.com/cb?password=abc', "a parameter 'password' (a password)"],
    ['https://example.com/cb?client_secret=abc', "a parameter 'client_secret' (a secret)"],
    ['https://example.com/cb?code=abc', "a parameter 'code' (a credential)"],
    ['https://example.com/cb#access_token=abc', "a parameter 'access_token' (a token)"],
    ['https://example.com/invite?email=ann%40example.com', 'an email address (personal data)'],
    ['https://example.com/users/ann@example.com', 'an email address (personal data)'],
    ['https://example.com/welcome?name=Ann%20Smith&phone=5551234567', "a person's name (personal data)"],
    ['https://example.com/welcome?name=Ann%20Smith&phone=5551234567', 'a phone number (personal data)'],
    ['https://example.com/call/+15551234567', 'a phone number (personal data)'],
  ])('refuses %s', async (url, problem) => {
    expect(unsafeUrlParts(new URL(url))).toContain(problem);
    await expect(context().elicitUrl('Open this page', url)).rejects.toThrow(UnsafeUrlError);
  });

  it('names the fix for an unsafe URL, and sends a safe one', async () => {
    await expect(
      context().elicitUrl('Link your account', 'https://user:pw@example.com/?access_token=t&email=a%40b.io'),
    ).rejects.toThrow(/keep tokens and personal data on the server/);
    expect(unsafeUrlParts(new URL('https://example.com/connect/abc123?step=2&lang=en'))).toEqual([]);
    await expect(context().elicitUrl('Open this page', 'https://example.com/connect/abc123')).rejects.toBe(
      SUSPEND,
    );
  });

  it('warns once about a form with no fields', async () => {
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on('warning', listen);
    try {
      const empty = ask.form({});
      await expect(context().elicit('Go ahead?', empty)).rejects.toBe(SUSPEND);
      await expect(context().elicit('Go ahead?', empty)).rejects.toBe(SUSPEND);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
    }
    expect(warnings.map((warning) => (warning as Error & { code?: string }).code)).toEqual([
      'PARLEY_EMPTY_FORM',
    ]);
    expect(warnings[0]!.message).toContain('ask.form({}) has no fields');
  });
});

describe('an accepted form without content', () => {
  const item = formKind.item('q1', {
    kind: 'form',
    message: 'Anything to add?',
    question: ask.form({ note: ask.text({ optional: true }) }),
  });

  it('is not an empty submission: the reply is refused, naming what to send', () => {
    const checked = formKind.check(item, { action: 'accept' });
    expect(checked).toEqual({
      status: 'malformed',
      problem: expect.stringContaining('accepts a form but carries no content object'),
    });
  });

  it('an explicit empty content is a valid submission of a form whose fields are all optional', () => {
    expect(formKind.check(item, { action: 'accept', content: {} })).toEqual({
      status: 'ok',
      result: { action: 'accept', value: {} },
    });
  });
});
