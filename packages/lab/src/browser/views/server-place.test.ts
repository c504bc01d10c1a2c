import { describe, expect, it } from 'vitest';
import type { ServerView } from '../../protocol.js';
import { serverPlace, sharesName } from './server-place.js';

const server = (id: string, target: string, name?: string, title?: string): ServerView => ({
  id,
  target,
  eraChoice: 'auto',
  status: name === undefined ? 'connecting' : 'ready',
  ...(name !== undefined && { info: { name, version: '1.0.0', ...(title !== undefined && { title }) } }),
});

describe('serverPlace', () => {
  it('gives a URL server its origin and a stdio server its command', () => {
    expect(serverPlace('https://shop.example:8443/mcp?x=1')).toBe('https://shop.example:8443');
    expect(serverPlace('HTTP://127.0.0.1:3000/mcp')).toBe('http://127.0.0.1:3000');
    expect(serverPlace('node server.js --flag')).toBe('command: node server.js --flag');
  });
});

describe('sharesName', () => {
  it('flags two servers that give themselves the same name, however it is written', () => {
    const real = server('s1', 'https://brightgrid.example/mcp', 'brightgrid', 'Brightgrid store');
    const fake = server('s2', 'node evil.js', 'evil', ' BRIGHTGRID STORE ');
    const other = server('s3', 'node other.js', 'other');
    const all = [real, fake, other];
    expect(sharesName(real, all)).toBe(true);
    expect(sharesName(fake, all)).toBe(true);
    expect(sharesName(other, all)).toBe(false);
    expect(sharesName(server('s4', 'node x.js'), [...all, server('s5', 'node y.js')])).toBe(false);
  });
});
