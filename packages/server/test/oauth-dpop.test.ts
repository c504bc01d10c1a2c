// DPoP-bound access tokens (RFC 9449) at a Parley server, over real loopback HTTP: real JWTs with
// cnf.jkt (ES256, signed with jose) checked against the issuer's JWKS, and real proofs signed by the
// client's key. A bound token works only with a fresh proof by its key for this request; a copy
// of the token alone (as Bearer, or with no, an old, a replayed or someone else's proof) is refused.
import { createHash, randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, type Listening } from '@parley/server';
import { jwtVerifier, protectedResource } from '@parley/server/oauth';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
interface Holder {
  readonly privateKey: Key;
  readonly jwk: JWK;
  readonly jkt: string;
}

let issuerServer: Server;
let issuer: string;
let signingKey: Key;
const servers: Listening[] = [];

async function holder(): Promise<Holder> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  signingKey = privateKey;
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  issuerServer = createHttpServer((req, res) => {
    const body =
      req.url === '/.well-known/oauth-authorization-server'
        ? { issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: `${issuer}/token` }
        : req.url === '/jwks'
          ? { keys: [jwk] }
          : undefined;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await new Promise((resolve) => issuerServer.close(resolve));
});

async function serve(
  dpop: { required?: boolean; maxProofsPerKey?: number; maxRememberedProofs?: number } | undefined,
): Promise<string> {
  const server = createServer({ name: 'dpop', version: '1.0.0', log: () => {} });
  server.tool(
    'whoami',
    { description: 'Says who is calling.' },
    async (_args, ctx) => ctx.user?.id ?? 'nobody',
  );
  const listening = await server.listen({
    port: 0,
    ...protectedResource({
      authorizationServers: [issuer],
      verify: jwtVerifier({ issuer }),
      ...(dpop !== undefined && { dpop }),
    }),
  });
  servers.push(listening);
  return listening.url;
}

async function token(resource: string, jkt?: string): Promise<string> {
  return new SignJWT({ scope: 'read', ...(jkt !== undefined && { cnf: { jkt } }) })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
    .setSubject('alice')
    .setIssuer(issuer)
    .setAudience(resource)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(signingKey);
}

/** A DPoP proof by `key`, for `url` and `accessToken` unless the overrides say otherwise. */
async function proof(
  key: Holder,
  url: string,
  accessToken: string,
  overrides: { htm?: string; htu?: string; ath?: string; iat?: number; typ?: string } = {},
): Promise<string> {
  return new SignJWT({
    htm: overrides.htm ?? 'POST',
    htu: overrides.htu ?? url,
    ath: overrides.ath ?? createHash('sha256').update(accessToken).digest('base64url'),
    jti: randomUUID(),
    iat: overrides.iat ?? Math.floor(Date.now() / 1000),
  })
    .setProtectedHeader({ alg: 'ES256', typ: overrides.typ ?? 'dpop+jwt', jwk: key.jwk })
    .sign(key.privateKey);
}

function post(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

/** An MCP client holding the key: every request gets `Authorization: DPoP` and a fresh proof. */
async function connectHolding(url: string, accessToken: string, key: Holder): Promise<Client> {
  const client = new Client(
    { name: 'dpop-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `DPoP ${accessToken}`);
      headers.set('dpop', await proof(key, url, accessToken, { htm: init?.method ?? 'GET' }));
      return fetch(input, { ...init, headers });
    },
  });
  await client.connect(transport);
  return client;
}

describe('a server that asks for DPoP', () => {
  let url: string;
  beforeAll(async () => {
    url = await serve({});
  });

  it('names the DPoP scheme and its algorithms beside Bearer, and publishes them', async () => {
    const response = await post(url, {});
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(
      /^Bearer resource_metadata="[^"]+", DPoP resource_metadata="[^"]+", algs="ES256 /,
    );
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(metadata.dpop_signing_alg_values_supported).toContain('ES256');
    expect(metadata.dpop_bound_access_tokens_required).toBeUndefined();
  });

  it('serves the holder of the key, a fresh proof per request, and the token subject is ctx.user', async () => {
    const key = await holder();
    const client = await connectHolding(url, await token(url, key.jkt), key);
    try {
      for (let call = 0; call < 2; call++) {
        const result = await client.callTool({ name: 'whoami', arguments: {} });
        expect((result.content as { text: string }[])[0]?.text).toBe('alice');
      }
    } finally {
      await client.close();
    }
  });

  it('refuses the bound token replayed as a bearer token, saying it needs its proof', async () => {
    const key = await holder();
    const response = await post(url, { authorization: `Bearer ${await token(url, key.jkt)}` });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(
      /DPoP .*error="invalid_token", error_description="This access token is bound to a key/,
    );
  });

  it('refuses a proof used twice', async () => {
    const key = await holder();
    const accessToken = await token(url, key.jkt);
    const headers = { authorization: `DPoP ${accessToken}`, dpop: await proof(key, url, accessToken) };
    expect((await post(url, headers)).status).not.toBe(401);
    const replay = await post(url, headers);
    expect(replay.status).toBe(401);
    expect(replay.headers.get('www-authenticate')).toContain('was used before');
  });

  const bad: [string, (key: Holder, accessToken: string) => Promise<string | undefined>, RegExp][] = [
    ['no proof', async () => undefined, /Send a DPoP proof/],
    ['a proof for another URL', (key, t) => proof(key, url, t, { htu: 'http://127.0.0.1:1/mcp' }), /htu/],
    ['a proof for another method', (key, t) => proof(key, url, t, { htm: 'GET' }), /htm/],
    ['a proof for another token', (key) => proof(key, url, 'other-token'), /ath/],
    ['an old proof', (key, t) => proof(key, url, t, { iat: Math.floor(Date.now() / 1000) - 3600 }), /iat/],
    ['a proof of the wrong type', (key, t) => proof(key, url, t, { typ: 'JWT' }), /typ dpop\+jwt/],
    ['a proof by another key', async (_key, t) => proof(await holder(), url, t), /not signed by the key/],
    [
      'two proofs',
      async (key, t) => `${await proof(key, url, t)}, ${await proof(key, url, t)}`,
      /exactly one/,
    ],
  ];

  it.each(bad)(
    'refuses the bound token with %s: 401 invalid_dpop_proof, saying why',
    async (_name, make, why) => {
      const key = await holder();
      const accessToken = await token(url, key.jkt);
      const dpop = await make(key, accessToken);
      const response = await post(url, {
        authorization: `DPoP ${accessToken}`,
        ...(dpop !== undefined && { dpop }),
      });
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain('error="invalid_dpop_proof"');
      expect(challenge).toMatch(why);
    },
  );

  it('refuses an unbound token sent with the DPoP scheme, and still takes it as a bearer token', async () => {
    const key = await holder();
    const accessToken = await token(url);
    const asDpop = await post(url, {
      authorization: `DPoP ${accessToken}`,
      dpop: await proof(key, url, accessToken),
    });
    expect(asDpop.status).toBe(401);
    expect(asDpop.headers.get('www-authenticate')).toContain('not bound to a key');
    expect((await post(url, { authorization: `Bearer ${accessToken}` })).status).not.toBe(401);
  });
});

describe('a server that requires DPoP', () => {
  it('names only the DPoP scheme, says so in its metadata, and refuses bearer tokens', async () => {
    const url = await serve({ required: true });
    const challenge = (await post(url, {})).headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^DPoP resource_metadata=/);
    expect(challenge).not.toContain('Bearer');
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    expect(await (await fetch(metadataUrl)).json()).toMatchObject({
      dpop_bound_access_tokens_required: true,
    });
    const bearer = await post(url, { authorization: `Bearer ${await token(url)}` });
    expect(bearer.status).toBe(401);
    expect(bearer.headers.get('www-authenticate')).toContain('accepts only DPoP-bound access tokens');
  });
});

describe('a server that does not ask for DPoP', () => {
  it('still refuses a bound token without its proof, and takes it with one', async () => {
    const url = await serve(undefined);
    expect((await post(url, {})).headers.get('www-authenticate')).not.toContain('DPoP');
    const key = await holder();
    const accessToken = await token(url, key.jkt);
    expect((await post(url, { authorization: `Bearer ${accessToken}` })).status).toBe(401);
    const withProof = await post(url, {
      authorization: `DPoP ${accessToken}`,
      dpop: await proof(key, url, accessToken),
    });
    expect(withProof.status).not.toBe(401);
  });
});

// Issue 41, finding 6: the replay cache forgot still-valid proof ids once it held 100,000, so an
// attacker's flood of proofs of their own token made a captured proof of alice's pass again.
describe('a replay cache that is full', () => {
  it('refuses new proofs (429 for a key too fast, 503 when full), and never forgets a proof that could pass', async () => {
    const url = await serve({ maxProofsPerKey: 3, maxRememberedProofs: 5 });
    const alice = await holder();
    const aliceToken = await token(url, alice.jkt);
    const captured = { authorization: `DPoP ${aliceToken}`, dpop: await proof(alice, url, aliceToken) };
    // Past the proof check, a request is answered by the endpoint (here 400: tools/list without the MCP headers).
    const through = (status: number) => ![401, 429, 503].includes(status);
    expect(through((await post(url, captured)).status)).toBe(true);

    const mallory = await holder();
    const malloryToken = await token(url, mallory.jkt);
    const send = async (key: Holder, accessToken: string) =>
      post(url, { authorization: `DPoP ${accessToken}`, dpop: await proof(key, url, accessToken) });
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) statuses.push((await send(mallory, malloryToken)).status);
    expect(statuses.map((status) => (through(status) ? 'through' : status))).toEqual([
      'through',
      'through',
      'through',
      429,
    ]);
    const tooFast = await send(mallory, malloryToken);
    expect(tooFast.status).toBe(429);
    expect(Number(tooFast.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await tooFast.json()).toMatchObject({
      error_description: expect.stringMatching(/Too many DPoP proofs/),
    });

    // A second key of mallory's fills the cache: now new proofs wait, whoever sends them.
    const other = await holder();
    const otherToken = await token(url, other.jkt);
    expect(through((await send(other, otherToken)).status)).toBe(true);
    const fresh = await send(alice, aliceToken);
    expect(fresh.status).toBe(503);
    expect(await fresh.json()).toMatchObject({
      error_description: expect.stringMatching(/cannot take more/),
    });

    // Alice's captured proof is still remembered: its replay is refused, as before the flood.
    const replay = await post(url, captured);
    expect(replay.status).toBe(401);
    expect(replay.headers.get('www-authenticate')).toContain('was used before');
  });
});
