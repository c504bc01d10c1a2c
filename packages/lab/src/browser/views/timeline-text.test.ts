import { describe, expect, it } from 'vitest';
import { timelineText } from './timeline-text.js';

describe('timelineText', () => {
  it('describes a request leg', () => {
    expect(timelineText({ type: 'request', round: 1, at: 0, method: 'tools/call' })).toBe(
      'Request tools/call',
    );
  });

  it('gives the keys and the state size of an input-required result, never its content', () => {
    expect(
      timelineText({
        type: 'input-required',
        round: 1,
        at: 0,
        keys: ['city', 'nights'],
        stateBytes: 1234,
        ms: 12.4,
      }),
    ).toBe('Input required: city, nights; request state 1,234 bytes (12 ms)');
    expect(timelineText({ type: 'input-required', round: 2, at: 0, keys: ['x'], stateBytes: null })).toBe(
      'Input required: x; no request state',
    );
  });

  it('lists the action sent for each key', () => {
    expect(
      timelineText({
        type: 'answers',
        round: 1,
        at: 0,
        answers: [
          { key: 'city', action: 'accept' },
          { method: 'elicitation/create', action: 'decline' },
        ],
      }),
    ).toBe('Answers sent: city accept, elicitation/create decline');
  });

  it('tells a result, a tool error and a failure apart', () => {
    expect(timelineText({ type: 'result', round: 3, at: 0, isError: false, ms: 40 })).toBe('Result (40 ms)');
    expect(timelineText({ type: 'result', round: 1, at: 0, isError: true })).toBe('Tool error');
    expect(timelineText({ type: 'error', round: 1, at: 0, message: 'round limit', ms: 5 })).toBe(
      'Failed: round limit (5 ms)',
    );
  });

  it('describes handshake-era questions and skipped ones', () => {
    expect(timelineText({ type: 'elicitation', round: 1, at: 0, mode: 'url', key: 'sign_in' })).toBe(
      'Server asked (elicitation/create, url): sign_in',
    );
    expect(
      timelineText({ type: 'skipped', round: 1, at: 0, key: 'k', reason: 'schema outside the subset' }),
    ).toBe('Not shown: k: schema outside the subset');
  });

  it('falls back to the event type for events it does not know', () => {
    expect(timelineText({ type: 'something-new', round: 1, at: 0 })).toBe('something-new');
  });
});
