import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayConfigError, loadGatewayConfig, readGatewayConfig } from './read-config.js';

function problems(value: unknown, env: NodeJS.ProcessEnv = {}): readonly string[] {
  try {
    readGatewayConfig(value, { env });
  } catch (error) {
    if (error instanceof GatewayConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('readGatewayConfig', () => {
  it('takes the example of the README as it is', () => {
    const config = readGatewayConfig(
      {
        upstreams: {
          returns: {
            url: 'http://127.0.0.1:3000/mcp',
            headers: { authorization: 'Bearer \u0024{RETURNS_TOKEN}' },
          },
          files: { command: 'python', args: ['server.py'], env: {}, era: '2025-11-25' },
        },
      },
      { env: { RETURNS_TOKEN: 't0ken' } },
    );
    expect(config.upstreams.returns).toEqual({
      url: 'http://127.0.0.1:3000/mcp',
      headers: { authorization: 'Bearer t0ken' },
    });
    expect(config.upstreams.files).toMatchObject({ command: 'python', era: '2025-11-25' });
  });

  it('names the field and the fix of every problem at once', () => {
    expect(
      problems({
        upstreams: {
          'bad name': { url: 'http://x/mcp' },
          both: { url: 'http://x/mcp', command: 'node' },
          neither: {},
          era: { url: 'http://x/mcp', era: '2025-03-26' },
          ftp: { url: 'ftp://x/mcp' },
          typo: { command: 'node', argz: [] },
          secret: { url: 'http://x/mcp', headers: { authorization: 'Bearer \u0024{NOT_SET}' } },
        },
        urls: 'maybe',
      }),
    ).toEqual([
      'upstreams.secret.headers.authorization: refers to the environment variable NOT_SET, which is not set; set it, or write the value itself',
      expect.stringMatching(/^upstreams\.bad name: upstream names are 1 to 32 letters, digits and "-"/),
      'upstreams.both: has both url and command; an upstream is either reached over HTTP (url) or started on stdio (command)',
      expect.stringMatching(
        /^upstreams\.neither: must be an object with url \(an HTTP upstream\) or command/,
      ),
      expect.stringMatching(
        /^upstreams\.era\.era: must be "auto", "2026-07-28", "2025-11-25" or "2025-06-18" \(got "2025-03-26"\)/,
      ),
      expect.stringMatching(
        /^upstreams\.ftp\.url: must be the upstream MCP endpoint, an http:\/\/ or https:\/\/ URL/,
      ),
      expect.stringMatching(
        /^upstreams\.typo: has an unknown field "argz"; a stdio upstream takes command, args/,
      ),
      expect.stringMatching(/^urls: must be "warn" .* or "refuse"/),
    ]);
  });

  it('refuses a configuration with no upstream, and OAuth credentials that do not add up', () => {
    expect(problems({ upstreams: {} })).toEqual([
      expect.stringMatching(/^upstreams: needs at least one upstream/),
    ]);
    expect(
      problems({ upstreams: { a: { url: 'http://x/mcp', oauth: { issuer: 'https://auth.example.com' } } } }),
    ).toEqual([
      expect.stringMatching(
        /^upstreams\.a\.oauth: needs either clientId \(with clientSecret or privateKeyFile\)/,
      ),
    ]);
    expect(
      problems({
        upstreams: {
          a: {
            url: 'http://x/mcp',
            oauth: { issuer: 'https://a', clientId: 'gw', clientSecret: 's', privateKeyFile: 'k' },
          },
        },
      }),
    ).toEqual([
      'upstreams.a.oauth.clientSecret: give exactly one of clientSecret and privateKeyFile with clientId',
    ]);
  });

  it('takes a fleet section from the environment, and names the field and fix of each problem in it', () => {
    const keys = `k1:${Buffer.alloc(32, 7).toString('base64')}`;
    const config = readGatewayConfig(
      {
        upstreams: { a: { url: 'http://x/mcp' } },
        fleet: {
          redis: '\u0024{REDIS_URL}',
          replica: '\u0024{REPLICA}',
          stateKeys: '\u0024{PARLEY_STATE_KEYS}',
        },
      },
      { env: { REDIS_URL: 'redis://127.0.0.1:6379', REPLICA: 'gw2', PARLEY_STATE_KEYS: keys } },
    );
    expect(config.fleet).toEqual({ redis: 'redis://127.0.0.1:6379', replica: 'gw2', stateKeys: keys });
    expect(
      problems({
        upstreams: { a: { url: 'http://x/mcp' } },
        fleet: { redis: 'http://127.0.0.1:6379', replica: 'gw.1', stateKeys: 'no-colon', extra: 1 },
      }),
    ).toEqual([
      expect.stringMatching(
        /^fleet\.redis: must be the Redis every replica shares, a redis:\/\/ or rediss:\/\/ URL/,
      ),
      expect.stringMatching(
        /^fleet\.replica: must name this replica with 1 to 32 letters, digits, "_" and "-"/,
      ),
      expect.stringMatching(
        /^fleet\.stateKeys: must be the key ring every replica shares: comma-separated id:base64secret pairs/,
      ),
      expect.stringMatching(/^fleet: has an unknown field "extra"; it takes redis, replica and stateKeys$/),
    ]);
    expect(problems({ upstreams: { a: { url: 'http://x/mcp' } }, fleet: 'redis://x' })).toEqual([
      'fleet: must be an object: { "redis", "replica", "stateKeys" }',
    ]);
  });

  it('says when the file cannot be read or is not JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-config-'));
    const file = join(dir, 'gateway.json');
    await expect(loadGatewayConfig(join(dir, 'missing.json'))).rejects.toThrow(
      /cannot be read \(ENOENT\); check the path given to --config/,
    );
    await writeFile(file, '{ "upstreams": ');
    await expect(loadGatewayConfig(file)).rejects.toThrow(/the file is not JSON/);
  });
});
