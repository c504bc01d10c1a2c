import { describe, expect, it } from 'vitest';
import { readAddServer, readStartCall } from './request-bodies.js';

describe('readAddServer', () => {
  it('reads a target and an era, auto by default', () => {
    expect(readAddServer({ target: '  node server.js ' })).toEqual({ target: 'node server.js', era: 'auto' });
    expect(readAddServer({ target: 'http://127.0.0.1:1/mcp', era: 'handshake' })).toEqual({
      target: 'http://127.0.0.1:1/mcp',
      era: 'handshake',
    });
  });

  it('says what is missing or wrong', () => {
    expect(readAddServer({ target: ' ' })).toContain('Give a target');
    expect(readAddServer({ target: 'x', era: '2025' })).toBe('"era" must be one of auto, modern, handshake.');
    expect(readAddServer({ target: 'x'.repeat(5000) })).toContain('longer than');
    expect(readAddServer('node server.js')).toContain('"target"');
  });
});

describe('readStartCall', () => {
  it('reads a tool call with arguments', () => {
    expect(readStartCall({ serverId: 's1', kind: 'tool', name: 'echo', arguments: { n: 1 } })).toEqual({
      serverId: 's1',
      kind: 'tool',
      name: 'echo',
      arguments: { n: 1 },
    });
    expect(readStartCall({ serverId: 's1', kind: 'resource', name: 'lab://readme' })).toMatchObject({
      arguments: {},
    });
  });

  it('refuses a bad kind, name, server or argument object', () => {
    expect(readStartCall({ serverId: 's1', kind: 'sample', name: 'x' })).toContain('"kind"');
    expect(readStartCall({ serverId: 's1', kind: 'tool', name: '' })).toContain('"name"');
    expect(readStartCall({ kind: 'tool', name: 'x' })).toContain('"serverId"');
    expect(readStartCall({ serverId: 's1', kind: 'tool', name: 'x', arguments: [1] })).toBe(
      '"arguments" must be an object.',
    );
  });

  it('requires text for prompt arguments', () => {
    expect(readStartCall({ serverId: 's1', kind: 'prompt', name: 'p', arguments: { n: 1 } })).toContain(
      'string',
    );
    expect(readStartCall({ serverId: 's1', kind: 'prompt', name: 'p', arguments: { n: '1' } })).toMatchObject(
      {
        arguments: { n: '1' },
      },
    );
  });
});
