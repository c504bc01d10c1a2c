import { describe, expect, it } from 'vitest';
import { askerHeading, callLine } from './context-text.js';

describe('askerHeading', () => {
  it('names the server by its title, else its name', () => {
    expect(askerHeading({ server: { name: 'brightgrid', version: '1', title: 'Brightgrid' } })).toBe(
      'Brightgrid asks',
    );
    expect(askerHeading({ server: { name: 'brightgrid', version: '1' } })).toBe('brightgrid asks');
  });

  it('still says a server asks when nothing is known', () => {
    expect(askerHeading(undefined)).toBe('A server asks');
    expect(askerHeading({ server: { name: '', version: '' } })).toBe('A server asks');
  });
});

describe('callLine', () => {
  it('says during which call, which round and which of several questions', () => {
    expect(
      callLine({ call: { kind: 'tool', name: 'book_return' }, round: 2, position: { index: 1, of: 2 } }),
    ).toBe('During the tool call “book_return” · round 2 · question 1 of 2');
  });

  it('leaves out round 1 and a lone question', () => {
    expect(
      callLine({ call: { kind: 'prompt', name: 'plan' }, round: 1, position: { index: 1, of: 1 } }),
    ).toBe('While getting the prompt “plan”');
    expect(callLine({ call: { kind: 'resource', name: 'lab://x' } })).toBe(
      'While reading the resource “lab://x”',
    );
  });

  it('starts with a capital when there is no call', () => {
    expect(callLine({ round: 3 })).toBe('Round 3');
    expect(callLine(undefined)).toBe('');
  });

  it('ignores a call kind it does not know', () => {
    expect(callLine({ call: { kind: 'sampling' as 'tool', name: 'x' } })).toBe('');
  });
});
