import { connect, ParleyError, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, startHttpServer, stdioServer } from './support.js';

const ui = scripted({});

describe('era negotiation', () => {
  let both: HttpFixture;
  let modernOnly: HttpFixture;
  beforeAll(async () => {
    [both, modernOnly] = await Promise.all([startHttpServer(), startHttpServer('--modern-only')]);
  });
  afterAll(async () => {
    await Promise.all([both.stop(), modernOnly.stop()]);
  });

  it.each([
    ['a dual-era stdio server', () => stdioServer(), 'modern', '2026-07-28'],
    ['a modern-only stdio server', () => stdioServer('--modern-only'), 'modern', '2026-07-28'],
    ['a 2025-only stdio server', () => stdioServer('--legacy-only'), 'handshake', '2025-11-25'],
    ['a dual-era HTTP server', () => both.url, 'modern', '2026-07-28'],
  ])('auto lands %s on the right era', async (_name, target, era, version) => {
    const client = await connect(target(), { ui });
    try {
      expect(client.era).toBe(era);
      expect(client.protocolVersion).toBe(version);
      expect(client.server.name).toBe('fixture');
    } finally {
      await client.close();
    }
  });

  it('says so when a stdio server silent on the discover probe was connected with the handshake', async () => {
    const server = new URL('./fixtures/stdio-server.mjs', import.meta.url).href;
    const slowToStart = ['node', '-e', `setTimeout(() => import(${JSON.stringify(server)}), 1500)`];
    const client = await connect(slowToStart, { ui, discoverTimeoutMs: 300 });
    try {
      expect(client.era).toBe('handshake');
      expect(client.eraNotice).toMatch(/did not answer the 2026-07-28 discover probe within 300 ms/);
    } finally {
      await client.close();
    }
    const quick = await connect(stdioServer('--legacy-only'), { ui, discoverTimeoutMs: 30_000 });
    try {
      expect(quick.era).toBe('handshake');
      expect(quick.eraNotice).toBeUndefined();
    } finally {
      await quick.close();
    }
  });

  it('uses the handshake when asked, even with a modern server', async () => {
    const client = await connect(both.url, { ui, era: 'handshake' });
    try {
      expect(client.era).toBe('handshake');
    } finally {
      await client.close();
    }
  });

  it('fails to connect with a steer when modern is required and the server is 2025-only', async () => {
    const failure = await connect(stdioServer('--legacy-only'), { ui, era: 'modern' }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ParleyError);
    expect(failure).toMatchObject({ kind: 'connection' });
    expect((failure as Error).message).toMatch(
      /^Could not connect to node .*stdio-server\.mjs --legacy-only: .*\(era "modern" was required; try era "auto"\)$/,
    );
  });

  it('fails to connect with a steer when the command or the URL leads nowhere', async () => {
    await expect(connect(['node', '-e', 'process.exit(3)'], { ui })).rejects.toThrow(
      /^Could not connect to node -e process.exit\(3\): .*; check that the command starts an MCP server on stdio$/,
    );
    await expect(connect('http://127.0.0.1:9/mcp', { ui })).rejects.toThrow(
      /^Could not connect to http:\/\/127\.0\.0\.1:9\/mcp: .*; check the URL and that the server is running$/,
    );
  });
});
