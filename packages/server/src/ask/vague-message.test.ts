import type { ServerContext } from '@modelcontextprotocol/server';
import { ask } from '@parley/core/form';
import { describe, expect, it } from 'vitest';
import { type ContextFacts, createContext, SUSPEND } from '../context/parley-context.js';
import { ReplayEngine } from '../eras/replay-engine.js';
import { NO_TASKS } from '../eras/task-start.js';
import { AuthorError } from '../errors.js';
import { firstRoundState } from '../state/round-state.js';
import { CallSecrets } from './call-secrets.js';
import { input } from './input.js';
import { formKind } from './kinds/form.js';
import { isVagueMessage, VagueMessageError } from './vague-message.js';

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

// Messages that say only that something is asked, and messages that say what (the ones the tests,
// the examples and the guide send among them), each judged as a person would.
const VAGUE = [
  'Input needed',
  'Please provide input',
  'Input required.',
  'Please provide the required information',
  'More information needed',
  'Enter a value',
  'Please fill in the form below',
  'Please answer the following questions:',
  'Additional input required',
  'User input required',
  'Need more details',
  'Provide the missing parameters',
  'PLEASE ENTER YOUR DATA',
];
const SAYS_WHAT = [
  'How many boxes?',
  'Please provide your email address',
  'Enter the pickup date',
  'Why?',
  'Any note?',
  'Continue?',
  'Please confirm',
  'Delete the 3 old invoices?',
  'Book a return needs boxes and pickup date. Fill in what is missing.',
  'Your name?',
  'upstream-server asks: Input needed',
  'Wie viele Kartons?',
  'Input needed for the deploy',
  '?',
];

describe('vague messages', () => {
  it('tells a message that says nothing about what is asked from one that says what', () => {
    expect(VAGUE.filter((message) => !isVagueMessage(message))).toEqual([]);
    expect(SAYS_WHAT.filter((message) => isVagueMessage(message))).toEqual([]);
  });

  it('refuses a vague form message with an AuthorError that names the fix', async () => {
    const asking = context().elicit('Input needed', ask.integer());
    await expect(asking).rejects.toThrow(VagueMessageError);
    await expect(context().elicit('Please provide input', ask.text())).rejects.toThrow(
      /"Please provide input" says neither\. Name it, e\.g\. ctx\.elicit\('How many boxes.*\{ allowVagueMessage: true \}/,
    );
    expect(new VagueMessageError('form', 'Input needed')).toBeInstanceOf(AuthorError);
  });

  it('refuses one in every way of asking: confirm, a batch, guard style, a URL question', async () => {
    await expect(context().confirm('Input required')).rejects.toThrow(VagueMessageError);
    await expect(
      context().elicitAll({ a: ['Please provide input', ask.text()], b: ['Which city?', ask.text()] }),
    ).rejects.toThrow(VagueMessageError);
    expect(() => formKind.item('a', { kind: 'form', message: 'Input needed', question: ask.text() })).toThrow(
      VagueMessageError,
    );
    await expect(context().elicitUrl('Input needed', 'https://example.com/connect')).rejects.toThrow(
      /A URL question's message must say what is asked/,
    );
  });

  it('sends a vague message its author allowed, in every way of asking', async () => {
    await expect(context().elicit('Input needed', ask.text(), { allowVagueMessage: true })).rejects.toBe(
      SUSPEND,
    );
    await expect(
      context().elicitAll({ a: input.form('Please provide input', ask.text(), { allowVagueMessage: true }) }),
    ).rejects.toBe(SUSPEND);
    await expect(
      context().elicitUrl('Input needed', 'https://example.com/connect', { allowVagueMessage: true }),
    ).rejects.toBe(SUSPEND);
  });
});
