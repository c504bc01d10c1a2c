import { describe, expect, it } from 'vitest';
import { type QuestionPageData, readQuestionPageData } from './page-data.js';

const ORIGIN = 'https://shop.example';

const DATA: QuestionPageData = {
  v: 1,
  server: { name: 'brightgrid', title: 'Brightgrid', version: '1.0.0' },
  call: { kind: 'tool', name: 'book_return' },
  message: 'How many boxes?',
  requestedSchema: { type: 'object', properties: { boxes: { type: 'integer', title: 'Boxes' } } },
  secretFields: [],
  csrf: 'c5rf',
  expiresAt: 1_800_000_000_000,
  answerUrl: 'https://shop.example/parley/q/abc/answer',
  after: 'url',
};

const problem = (change: Record<string, unknown>) => {
  const reading = readQuestionPageData({ ...DATA, ...change }, ORIGIN);
  return reading.ok ? '' : reading.problem;
};

describe('readQuestionPageData', () => {
  it('takes the data the server writes, with or without the optional parts', () => {
    expect(readQuestionPageData(DATA, ORIGIN)).toEqual({ ok: true, data: DATA });
    const bare = {
      ...DATA,
      server: { name: 'x' },
      call: { kind: 'resource', name: 'file:///a' },
      confirm: true,
    };
    expect(readQuestionPageData(bare, ORIGIN).ok).toBe(true);
  });

  it('names what is wrong', () => {
    expect(readQuestionPageData(undefined, ORIGIN)).toEqual({ ok: false, problem: 'it is not an object' });
    expect(readQuestionPageData([], ORIGIN)).toEqual({ ok: false, problem: 'it is not an object' });
    expect(problem({ v: 2 })).toBe('its version is not 1');
    expect(problem({ server: { title: 'No name' } })).toBe('server must have a name');
    expect(problem({ server: { name: 'x', version: 1 } })).toBe('server.version must be text');
    expect(problem({ call: { kind: 'sampling', name: 'x' } })).toBe(
      'call must be a tool, prompt or resource with a name',
    );
    expect(problem({ message: null })).toBe('message must be text');
    expect(problem({ requestedSchema: 'nope' })).toBe('requestedSchema must be an object');
    expect(problem({ secretFields: ['a', 1] })).toBe('secretFields must be a list of field names');
    expect(problem({ confirm: 'yes' })).toBe('confirm must be true or false');
    expect(problem({ csrf: '' })).toBe('csrf is missing');
    expect(problem({ expiresAt: Number.NaN })).toBe('expiresAt must be a time in milliseconds');
    expect(problem({ after: 'later' })).toBe("after must be 'url' or 'retry'");
    expect(problem({ answerUrl: '/relative' })).toBe('answerUrl must be an absolute URL');
  });

  it('refuses an answerUrl on any other origin, so a page never posts an answer elsewhere', () => {
    expect(problem({ answerUrl: 'https://evil.example/collect' })).toBe(
      "answerUrl must be on the page's own origin",
    );
    expect(problem({ answerUrl: 'http://shop.example/parley/q/abc/answer' })).toBe(
      "answerUrl must be on the page's own origin",
    );
    expect(problem({ answerUrl: 'https://shop.example:8443/a' })).toBe(
      "answerUrl must be on the page's own origin",
    );
  });

  it('does not take a call kind from the prototype chain', () => {
    expect(problem({ call: { kind: 'toString', name: 'x' } })).toBe(
      'call must be a tool, prompt or resource with a name',
    );
  });
});
