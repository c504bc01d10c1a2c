import { describe, expect, it } from 'vitest';
import { ParleyError } from './errors.js';
import { describeTarget, parseTarget, splitCommandLine } from './target.js';

describe('splitCommandLine', () => {
  it.each([
    ['node server.js', ['node', 'server.js']],
    ['  node   server.js  ', ['node', 'server.js']],
    [`node "my server.js" --name 'A B'`, ['node', 'my server.js', '--name', 'A B']],
    [`echo 'it''s'`, ['echo', 'its']],
    [`echo "say \\"hi\\"" \\$HOME`, ['echo', 'say "hi"', '$HOME']],
    [`echo 'no $expansion \\here'`, ['echo', 'no $expansion \\here']],
    [`echo "a\\nb"`, ['echo', 'a\\nb']],
    [`echo a\\ b`, ['echo', 'a b']],
    [`echo "" ''`, ['echo', '', '']],
    ['npx -y @scope/pkg@1.2.3 --port=3000', ['npx', '-y', '@scope/pkg@1.2.3', '--port=3000']],
    ['', []],
  ])('%s', (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });

  it('reports an unterminated quote instead of guessing', () => {
    expect(splitCommandLine(`node "server.js`)).toBeUndefined();
    expect(splitCommandLine(`node 'server.js`)).toBeUndefined();
  });
});

describe('parseTarget', () => {
  it('reads http and https strings and URL objects as Streamable HTTP', () => {
    expect(parseTarget('http://localhost:3000/mcp')).toEqual({
      kind: 'http',
      url: new URL('http://localhost:3000/mcp'),
    });
    expect(parseTarget(' HTTPS://example.com/mcp ')).toMatchObject({ kind: 'http' });
    expect(parseTarget(new URL('https://example.com/mcp'))).toMatchObject({ kind: 'http' });
  });

  it('reads anything else as a command to spawn', () => {
    expect(parseTarget('node "a b.js" --x')).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['a b.js', '--x'],
    });
    expect(parseTarget(['node', 'a b.js'])).toEqual({ kind: 'stdio', command: 'node', args: ['a b.js'] });
  });

  it('refuses an empty command and an unterminated quote with a steer', () => {
    expect(() => parseTarget('   ')).toThrow(/No server given; pass a command line/);
    expect(() => parseTarget(`node 'x`)).toThrow(ParleyError);
    expect(() => parseTarget(`node 'x`)).toThrow(/unterminated quote; close it/);
    expect(() => parseTarget('http://exa mple.com')).toThrow(/not a valid URL/);
  });

  it('describes a target for messages', () => {
    expect(describeTarget(parseTarget(['node', 'server.js']))).toBe('node server.js');
    expect(describeTarget(parseTarget('http://localhost:3000/mcp'))).toBe('http://localhost:3000/mcp');
  });
});
