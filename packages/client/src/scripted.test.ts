import { inspectUrl } from '@parley/core/url';
import { describe, expect, it } from 'vitest';
import { ParleyError } from './errors.js';
import { scripted } from './scripted.js';
import type { AskContext, FormRequest } from './types.js';

const context = (key?: string, round = 1): AskContext => ({
  server: { name: 'shop', version: '1.0.0' },
  call: { kind: 'tool', name: 'order' },
  callId: 1,
  round,
  ...(key !== undefined && { key }),
  position: { index: 1, of: 1 },
  era: 'modern',
  signal: new AbortController().signal,
});

const request = (message: string): FormRequest => ({
  message,
  requestedSchema: { type: 'object', properties: { n: { type: 'integer' } } },
});

describe('scripted', () => {
  it('answers by key first, then by message', async () => {
    const ui = scripted({ size: { n: 1 }, 'How many?': { n: 2 } });
    expect(await ui.form(request('How many?'), context('size'))).toEqual({
      action: 'accept',
      content: { n: 1 },
    });
    expect(await ui.form(request('How many?'), context('other'))).toEqual({
      action: 'accept',
      content: { n: 2 },
    });
  });

  it('uses a keyed array in order and a single keyed answer every time', async () => {
    const ui = scripted({ size: [{ n: 1 }, { action: 'decline' }], always: { action: 'cancel' } });
    expect(await ui.form(request('?'), context('size'))).toEqual({ action: 'accept', content: { n: 1 } });
    expect(await ui.form(request('?'), context('size'))).toEqual({ action: 'decline' });
    expect(await ui.form(request('?'), context('always'))).toEqual({ action: 'cancel' });
    expect(await ui.form(request('?'), context('always'))).toEqual({ action: 'cancel' });
    await expect(ui.form(request('?'), context('size'))).rejects.toThrow(/No scripted answer/);
  });

  it('uses an array in order whatever the question', async () => {
    const ui = scripted([{ n: 5 }, { action: 'decline' }]);
    expect(await ui.form(request('a'), context())).toEqual({ action: 'accept', content: { n: 5 } });
    expect(await ui.form(request('b'), context())).toEqual({ action: 'decline' });
  });

  it('reads a content object that has an "action" field as content, not as an action', async () => {
    const ui = scripted([{ action: 'deploy', target: 'prod' }]);
    expect(await ui.form(request('?'), context())).toEqual({
      action: 'accept',
      content: { action: 'deploy', target: 'prod' },
    });
  });

  it('calls function answers with the question and its context', async () => {
    const ui = scripted([(question, ctx) => ({ n: ctx.round * 10 + question.message.length })]);
    expect(await ui.form(request('abc'), context(undefined, 2))).toEqual({
      action: 'accept',
      content: { n: 23 },
    });
  });

  it('fails clearly on a missing answer, naming the question and how to answer it', async () => {
    const ui = scripted({});
    const failure = await ui
      .form(request('How many guests?'), context('guests'))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ParleyError);
    expect((failure as ParleyError).kind).toBe('unanswered');
    expect((failure as ParleyError).message).toBe(
      'No scripted answer for the question "guests" ("How many guests?") from shop during tool "order" (round 1); add an answer keyed by "guests"',
    );
  });

  it('records every question it was asked', async () => {
    const ui = scripted({ size: { n: 3 } });
    await ui.form(request('How many?'), context('size'));
    expect(ui.asked).toEqual([
      expect.objectContaining({
        mode: 'form',
        message: 'How many?',
        key: 'size',
        round: 1,
        answer: { action: 'accept', content: { n: 3 } },
      }),
    ]);
  });

  it('consents to URLs, then says finished unless told to cancel while waiting', async () => {
    const ui = scripted({ a: { action: 'accept' }, b: { action: 'accept', wait: 'cancel' } });
    const inspection = inspectUrl('https://example.com/connect');
    const first = { message: 'Sign in', url: 'https://example.com/connect' };
    const second = { message: 'Pay', url: 'https://example.com/pay' };
    expect(await ui.url(first, inspection, context('a'))).toEqual({ action: 'accept' });
    expect(await ui.waitForUrl?.(first, inspection, context('a'))).toBe('finished');
    expect(await ui.url(second, inspection, context('b'))).toEqual({ action: 'accept' });
    expect(await ui.waitForUrl?.(second, inspection, context('b'))).toBe('cancel');
    expect(ui.asked.map(({ mode, key, message }) => ({ mode, key, message }))).toEqual([
      { mode: 'url', key: 'a', message: 'Sign in' },
      { mode: 'url', key: 'b', message: 'Pay' },
    ]);
  });

  it('records a refused URL without using up an answer', async () => {
    const ui = scripted([{ action: 'accept' }]);
    const refused = inspectUrl('javascript:alert(1)');
    expect(refused.allowed).toBe(false);
    expect(await ui.url({ message: 'Open', url: 'javascript:alert(1)' }, refused, context())).toEqual({
      action: 'decline',
    });
    expect(ui.asked[0]).toMatchObject({ mode: 'url', url: 'javascript:alert(1)', answer: 'refused' });
    expect(
      await ui.url(
        { message: 'Open', url: 'https://example.com' },
        inspectUrl('https://example.com'),
        context(),
      ),
    ).toEqual({
      action: 'accept',
    });
  });

  it('declares the modes it was given', () => {
    expect(scripted([]).modes).toEqual({ form: true, url: true });
    expect(scripted([], { modes: { form: true, url: false } }).modes).toEqual({ form: true, url: false });
  });
});
