import { ask } from '@parley/core/form';
import { describe, expect, it } from 'vitest';
import { AuthorError } from '../errors.js';
import { formKind } from './kinds/form.js';
import { urlKind } from './kinds/url.js';
import { isVagueMessage, VagueMessageError } from './vague-message.js';

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

  it('refuses a vague message with an AuthorError that names the fix, in a form and a URL question', () => {
    const form = (message: string, allowVagueMessage?: boolean) =>
      formKind.item('q', { kind: 'form', message, question: ask.text(), allowVagueMessage });
    expect(() => form('Please provide input')).toThrow(
      /"Please provide input" says neither\. Name it, e\.g\. ctx\.elicit\('How many boxes.*\{ allowVagueMessage: true \}/,
    );
    expect(new VagueMessageError('form', 'Input needed')).toBeInstanceOf(AuthorError);
    expect(() =>
      urlKind.item('q', { kind: 'url', message: 'Input needed', url: 'https://example.com/connect' }),
    ).toThrow(/A URL question's message must say what is asked/);
  });

  it('sends a vague message its author allowed', () => {
    expect(
      formKind.item('q', {
        kind: 'form',
        message: 'Input needed',
        question: ask.text(),
        allowVagueMessage: true,
      }).message,
    ).toBe('Input needed');
    const url = {
      kind: 'url',
      message: 'Input needed',
      url: 'https://example.com/c',
      allowVagueMessage: true,
    };
    expect(urlKind.item('q', url).message).toBe('Input needed');
  });
});
