// A Parley server as an OAuth protected resource, over real loopback HTTP on both eras: real JWTs
// (ES256, signed with jose) checked against the issuer's JWKS, which a real HTTP server on loopback
// publishes with its metadata. Missing, expired, tampered, wrong-issuer and wrong-audience tokens
// are refused with 401 and a challenge naming the metadata; a tool that needs more scope answers
// 403 insufficient_scope; a good token's subject is ctx.user.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, type Listening } from '@parley/server';
import { jwtVerifier, protectedResource } from '@parley/server/oauth';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let issuerServer: Server;
let issuer: string;
let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let listening: Listening;
let resource: string;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  signingKey = privateKey;
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  issuerServer = createHttpServer((req, res) => {
    const body =
      req.url === '/.well-known/oauth-authorization-server'
        ? {
            issuer,
            jwks_uri: `${issuer}/jwks`,
            authorization_endpoint: `${issuer}/auth`,
            token_endpoint: `${issuer}/token`,
          }
        : req.url === '/jwks'
          ? { keys: [jwk] }
          : undefined;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;

  const server = createServer({ name: 'protected', version: '1.0.0', log: () => {} });
  server.tool(
    'whoami',
    { description: 'Says who is calling.' },
    async (_args, ctx) => ctx.user?.id ?? 'nobody',
  );
  server.tool('book', { description: 'Needs bookings:write.' }, async () => 'booked');
  const protection = protectedResource({
    authorizationServers: [issuer],
    verify: jwtVerifier({ issuer }),
    scopesSupported: ['bookings:read', 'bookings:write'],
    requiredScopes: { all: ['bookings:read'], tools: { book: ['bookings:write'] } },
  });
  listening = await server.listen({ port: 0, ...protection });
  resource = listening.url;
});
afterAll(async () => {
  await listening.close();
  await new Promise((resolve) => issuerServer.close(resolve));
});

async function token(claims: { sub?: string; scope?: string; aud?: string; iss?: string; exp?: number }) {
  return new SignJWT({ scope: claims.scope ?? 'bookings:read' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
    .setSubject(claims.sub ?? 'alice')
    .setIssuer(claims.iss ?? issuer)
    .setAudience(claims.aud ?? resource)
    .setIssuedAt()
    .setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600)
    .sign(signingKey);
}

function post(
  headers: Record<string, string>,
  body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
) {
  return fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

async function connectWith(accessToken: string, era: 'modern' | 'handshake'): Promise<Client> {
  const client = new Client(
    { name: 'oauth-test', version: '1.0.0' },
    { versionNegotiation: era === 'modern' ? { mode: { pin: '2026-07-28' } } : { mode: 'legacy' } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(resource), {
    requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
  });
  await client.connect(transport);
  return client;
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0]?.text;

describe('protected resource metadata and challenges', () => {
  it('publishes its metadata (RFC 9728) at the path-based well-known URL', async () => {
    const url = new URL(resource);
    const response = await fetch(`${url.origin}/.well-known/oauth-protected-resource${url.pathname}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource,
      authorization_servers: [issuer],
      scopes_supported: ['bookings:read', 'bookings:write'],
    });
  });

  it('answers a request without a token 401 with resource_metadata and scope', async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(
      `resource_metadata="${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(challenge).toContain('scope="bookings:read"');
  });
});

describe('tokens that are refused', () => {
  const cases: [string, () => Promise<string>, RegExp][] = [
    ['for another audience', () => token({ aud: 'https://other.example.com/mcp' }), /not for this server/],
    ['expired', () => token({ exp: Math.floor(Date.now() / 1000) - 600 }), /expired/],
    ['from another issuer', () => token({ iss: 'https://evil.example.com' }), /not issued by/],
    [
      'tampered with',
      async () => {
        const [header, payload, signature] = (await token({})).split('.');
        const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
        const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url');
        return `${header}.${forged}.${signature}`;
      },
      /signature does not verify/,
    ],
    ['not a JWT at all', async () => 'not-a-token', /not a valid JWT/],
  ];

  it.each(cases)('refuses a token %s with 401 invalid_token and says why', async (_name, make, reason) => {
    const response = await post({ authorization: `Bearer ${await make()}` });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toMatch(reason);
    expect(challenge).toContain('resource_metadata=');
    expect(((await response.json()) as { error_description: string }).error_description).toMatch(reason);
  });

  it('refuses a token without the scope every request needs with 403 insufficient_scope', async () => {
    const response = await post({ authorization: `Bearer ${await token({ scope: 'profile' })}` });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });
});

describe.each([['modern'], ['handshake']] as const)('a signed-in caller on the %s era', (era) => {
  it("is ctx.user, from the token's subject", async () => {
    const client = await connectWith(await token({ sub: 'alice' }), era);
    try {
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('alice');
    } finally {
      await client.close();
    }
  });

  it('needs bookings:write for the book tool: 403 insufficient_scope names it (step-up)', async () => {
    const body = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'book', arguments: {} } };
    const response = await post({ authorization: `Bearer ${await token({})}` }, body);
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="bookings:read bookings:write"');
    const client = await connectWith(await token({ scope: 'bookings:read bookings:write' }), era);
    try {
      expect(textOf(await client.callTool({ name: 'book', arguments: {} }))).toBe('booked');
    } finally {
      await client.close();
    }
  });
});
