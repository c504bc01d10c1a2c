// JWT forgeries that held in issue 24's review, kept as regression tests against the scoped-server
// fixture as a real process, whose jwtVerifier trusts only the issuer's published keys: a token
// with alg "none", one MACed with HS256 keyed by the issuer's public key, one carrying its own key
// in the header (jwk), one pointing to the attacker's key set (jku, never fetched), and one signed by
// another key under the issuer key's kid. (Wrong audience, expired, other issuer, tampered: see
// oauth-protected-resource.test.ts.) Each is refused 401 invalid_token, and the genuine token passes.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./dist/fixtures/scoped-server.js', import.meta.url));

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let issuerKeys: KeyPair;
let attackerKeys: KeyPair;
let issuerJwk: JWK;
let servers: Server[] = [];
let issuer: string;
let attackerJwks: string;
const attackerJwksHits: string[] = [];
let child: ChildProcess;
let url: string;

async function serve(handler: (path: string) => unknown): Promise<string> {
  const server = createHttpServer((req, res) => {
    const body = handler(req.url ?? '/');
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  issuerKeys = await generateKeyPair('ES256', { extractable: true });
  attackerKeys = await generateKeyPair('ES256', { extractable: true });
  issuerJwk = { ...(await exportJWK(issuerKeys.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const attackerJwk = { ...(await exportJWK(attackerKeys.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  issuer = await serve((path) =>
    path === '/.well-known/oauth-authorization-server'
      ? {
          issuer,
          jwks_uri: `${issuer}/jwks`,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
        }
      : path === '/jwks'
        ? { keys: [issuerJwk] }
        : undefined,
  );
  attackerJwks = await serve((path) => {
    attackerJwksHits.push(path);
    return { keys: [attackerJwk] };
  });
  child = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, SCOPED_ISSUER: issuer },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the fixture exited with ${code}`)));
  });
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

const claims = () => ({
  scope: 'base',
  sub: 'alice',
  iss: issuer,
  aud: url,
  iat: Math.floor(Date.now() / 1000),
  exp: Math.floor(Date.now() / 1000) + 600,
});
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function genuine(): Promise<string> {
  return new SignJWT(claims())
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
    .sign(issuerKeys.privateKey);
}

const FORGERIES: [string, () => Promise<string>][] = [
  ['alg "none"', async () => `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(claims())}.`],
  [
    'HS256 keyed with the issuer’s public key',
    async () => {
      const head = `${b64({ alg: 'HS256', kid: 'k1', typ: 'at+jwt' })}.${b64(claims())}`;
      const pem = await exportSPKI(issuerKeys.publicKey);
      return `${head}.${createHmac('sha256', pem).update(head).digest('base64url')}`;
    },
  ],
  [
    'its own key embedded in the header (jwk)',
    async () =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', jwk: await exportJWK(attackerKeys.publicKey) })
        .sign(attackerKeys.privateKey),
  ],
  [
    'a key set of the attacker’s (jku)',
    async () =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt', jku: `${attackerJwks}/jwks` })
        .sign(attackerKeys.privateKey),
  ],
  [
    'another key under the issuer key’s kid',
    async () =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
        .sign(attackerKeys.privateKey),
  ],
];

function post(token: string) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'forger', version: '1' },
      },
    }),
  });
}

describe('forged access tokens', () => {
  it.each(FORGERIES)('refuses a token with %s: 401 invalid_token', async (_name, forge) => {
    const response = await post(await forge());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('never fetched the attacker’s key set, and accepts the genuine token', async () => {
    expect(attackerJwksHits).toEqual([]);
    expect((await post(await genuine())).status).toBe(200);
  });
});
