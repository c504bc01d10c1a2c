import { describe, expect, it } from 'vitest';
import { readAddServer } from './request-bodies.js';
import { MAX_ROOTS, readRootChoices } from './root-choices.js';

describe('readRootChoices', () => {
  it('reads file:// URIs with optional names, trimmed; none is an empty list', () => {
    expect(readRootChoices(undefined)).toEqual([]);
    expect(
      readRootChoices([
        { uri: ' file:///home/ada/project ', name: ' project ' },
        { uri: 'file:///srv/data', name: '' },
        { uri: 'file:///tmp' },
      ]),
    ).toEqual([
      { uri: 'file:///home/ada/project', name: 'project' },
      { uri: 'file:///srv/data' },
      { uri: 'file:///tmp' },
    ]);
  });

  it('says which root is wrong and how to fix it', () => {
    expect(readRootChoices('file:///tmp')).toContain('must be a list');
    expect(readRootChoices([{ uri: 'https://example.com/x' }])).toBe(
      'Root 1: a root must be a file:// URI, such as file:///home/ada/project.',
    );
    expect(readRootChoices([{ uri: 'file:///a' }, { uri: 'not a uri' }])).toContain('Root 2: a root must be');
    expect(readRootChoices([{ name: 'x' }])).toBe('Root 1 needs a "uri".');
    expect(readRootChoices([{ uri: 'file:///a', name: 7 }])).toBe('Root 1: the name must be text.');
    expect(readRootChoices([{ uri: `file:///${'a'.repeat(3000)}` }])).toContain('longer than');
    expect(readRootChoices(Array.from({ length: MAX_ROOTS + 1 }, () => ({ uri: 'file:///a' })))).toBe(
      `Declare at most ${MAX_ROOTS} roots.`,
    );
  });

  it('is part of the add-server body, left out when empty', () => {
    expect(readAddServer({ target: 'node s.js', roots: [] })).toEqual({ target: 'node s.js', era: 'auto' });
    expect(readAddServer({ target: 'node s.js', roots: [{ uri: 'file:///tmp' }] })).toEqual({
      target: 'node s.js',
      era: 'auto',
      roots: [{ uri: 'file:///tmp' }],
    });
    expect(readAddServer({ target: 'node s.js', roots: [{ uri: 'javascript:alert(1)' }] })).toContain(
      'file:// URI',
    );
  });
});
