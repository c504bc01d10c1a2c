// Where the client looks for a server's protected resource metadata (issue 24, suspected item):
// only on the server's own origin. A server's challenge may name any `resource_metadata` address;
// fetched as given, it would send the person's client (inside their network) to any address the
// server picks. Real servers on loopback: the MCP server, and an "internal service" on another port
// that must never hear from the client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverResource } from './discovery.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(
  handle: (path: string, origin: string) => { status: number; body?: unknown; location?: string },
) {
  let origin = '';
  const server = createServer((req, res) => {
    const answer = handle(req.url ?? '/', origin);
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      ...(answer.location !== undefined && { location: answer.location }),
    });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return origin;
}

/** A service on another port that counts every request it gets. */
async function internalService() {
  const hits: string[] = [];
  const origin = await serve((path) => {
    hits.push(path);
    return { status: 200, body: { resource: 'anything', authorization_servers: ['http://127.0.0.1:1'] } };
  });
  return { origin, hits };
}

/** The MCP server: its metadata at the well-known address of its own origin, and `extra` routes. */
async function mcpServer(
  extra: (path: string, origin: string) => { status: number; location?: string } | undefined = () =>
    undefined,
) {
  return serve((path, origin) => {
    const other = extra(path, origin);
    if (other) return other;
    if (path === '/.well-known/oauth-protected-resource/mcp')
      return {
        status: 200,
        body: { resource: `${origin}/mcp`, authorization_servers: ['https://as.example'] },
      };
    return { status: 404 };
  });
}

describe('discoverResource', () => {
  it('does not fetch a resource_metadata address on another origin: it reads the server’s own well-known metadata', async () => {
    const internal = await internalService();
    const origin = await mcpServer();
    const found = await discoverResource(
      new URL(`${origin}/mcp`),
      new URL(`${internal.origin}/admin/reboot`),
      fetch,
    );
    expect(internal.hits).toEqual([]);
    expect(found).toMatchObject({ resource: `${origin}/mcp`, issuer: 'https://as.example' });
  });

  it('does not follow a redirect from the server’s metadata address to another origin', async () => {
    const internal = await internalService();
    const origin = await mcpServer((path) =>
      path === '/meta' ? { status: 302, location: `${internal.origin}/admin/reboot` } : undefined,
    );
    await expect(
      discoverResource(new URL(`${origin}/mcp`), new URL(`${origin}/meta`), fetch),
    ).rejects.toThrow(/redirected to another origin/);
    expect(internal.hits).toEqual([]);
  });

  it('uses a resource_metadata address on the server’s own origin, redirects within it included', async () => {
    const origin = await mcpServer((path, own) =>
      path === '/meta'
        ? { status: 307, location: `${own}/.well-known/oauth-protected-resource/mcp` }
        : undefined,
    );
    const found = await discoverResource(new URL(`${origin}/mcp`), new URL(`${origin}/meta`), fetch);
    expect(found).toMatchObject({ resource: `${origin}/mcp` });
  });
});
