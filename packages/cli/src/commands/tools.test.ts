import { describe, expect, it } from 'vitest';
import { toolListText } from './tools.js';

describe('toolListText', () => {
  it('lines descriptions up by the names as the terminal shows them', () => {
    const text = toolListText([
      { name: 'evil\x1b[2Jname', description: 'clears your screen\nsecond line' },
      { name: 'book', description: 'books a pickup' },
      { name: 'ünïcode', description: 'accents' },
      { name: 'bare' },
    ]);
    expect(text.split('\n')).toEqual([
      'evil␛[2Jname  clears your screen',
      'book          books a pickup',
      'ünïcode       accents',
      'bare',
    ]);
  });
});
