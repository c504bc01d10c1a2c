import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type ParleyClient, scripted } from '@parley/client';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningGateway, startGateway, startUpstream, textOf, type Upstream } from './support.js';

// Which 2025 upstream session serves whom: an upstream keeps state per session (and asks its
// questions on it), so a session shared between hosts or users would leak one's state and
// questions to another. The upstream (a Parley server spoken to in 2025-11-25) names the session
// each call came on; the hosts are Parley's client over real loopback HTTP and stdio, signed in
// with real JWTs from an issuer this test serves.

let upstream: Upstream;
let open: RunningGateway;
let guarded: RunningGateway;
let issuer: TestIssuer;
const config = () => ({ upstreams: { desk: { url: upstream.url, era: '2025-11-25' } } });

beforeAll(async () => {
  [upstream, issuer] = await Promise.all([startUpstream('parley-upstream.mjs', 'http'), startIssuer()]);
  [open, guarded] = await Promise.all([
    startGateway(config()),
    startGateway({ ...config(), auth: { issuer: issuer.url } }),
  ]);
});
afterAll(async () => {
  await Promise.all([open?.stop(), guarded?.stop()]);
  await Promise.all([upstream?.stop(), issuer?.close()]);
});

const hosts: ParleyClient[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((client) => client.close()));
});

/** A host (Parley's client) that answers every question; signed in as `user` when named. */
async function host(
  target: string | readonly string[],
  era: 'modern' | 'handshake',
  user?: string,
): Promise<ParleyClient> {
  const headers =
    user === undefined ? undefined : { authorization: `Bearer ${await issuer.token(user, String(target))}` };
  const client = await connect(target, {
    ui: scripted({ ready: Array.from({ length: 5 }, () => ({ value: 'yes' })) }),
    era,
    ...(headers && { headers }),
    ...(typeof target !== 'string' && { stderr: 'ignore' as const }),
  });
  hosts.push(client);
  return client;
}

/** The upstream session a call of `client` came on (after a question, with `ask`). */
async function sessionOf(client: ParleyClient, ask = false): Promise<string> {
  const id = textOf(await client.callTool('session', ask ? { ask: true } : {}));
  expect(id).toMatch(/^[\w-]{8,}$/);
  return id;
}

const sessionsOpen = (running: RunningGateway) => running.gateway.status().upstreams[0]!.sessions;

/** Whether the upstream still knows a 2025 session (it answers 404 for one it closed). */
async function upstreamKnows(id: string): Promise<boolean> {
  const response = await fetch(upstream.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': id,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.body?.cancel();
  return response.status !== 404;
}

describe('2025 upstream sessions', () => {
  it('gives each call of an anonymous 2026-07-28 host a session of its own, never another host’s', async () => {
    const a = await host(open.url, 'modern');
    const b = await host(open.url, 'modern');
    const ids = [await sessionOf(a), await sessionOf(b), await sessionOf(a)];
    ids.push(...(await Promise.all([sessionOf(a, true), sessionOf(b, true)])));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('closes a call’s own session as soon as the call ends, here and upstream', async () => {
    const a = await host(open.url, 'modern');
    for (const ask of [false, true]) {
      const id = await sessionOf(a, ask);
      expect(sessionsOpen(open)).toBe(0);
      await vi.waitFor(async () => expect(await upstreamKnows(id)).toBe(false), { timeout: 10_000 });
    }
  });

  it('serves a signed-in 2026-07-28 host on its user’s sessions, and no other user’s', async () => {
    const alice = await host(guarded.url, 'modern', 'alice');
    const aliceAgain = await host(guarded.url, 'modern', 'alice');
    const bob = await host(guarded.url, 'modern', 'bob');
    const ofAlice = await sessionOf(alice, true);
    expect(await sessionOf(aliceAgain)).toBe(ofAlice);
    expect(await sessionOf(alice)).toBe(ofAlice);
    const ofBob = await sessionOf(bob);
    expect(ofBob).not.toBe(ofAlice);
    expect(await sessionOf(bob, true)).toBe(ofBob);
    // A user's session outlives the call: it serves the user's next one.
    expect(await upstreamKnows(ofAlice)).toBe(true);
    expect(sessionsOpen(guarded)).toBe(2);
  });

  it('serves each 2025 host on a session of its own', async () => {
    const first = await host(open.url, 'handshake');
    const second = await host(open.url, 'handshake');
    const ofFirst = await sessionOf(first);
    expect(await sessionOf(first, true)).toBe(ofFirst);
    const ofSecond = await sessionOf(second);
    expect(ofSecond).not.toBe(ofFirst);
    expect(await sessionOf(second)).toBe(ofSecond);
  });

  it('serves the one host of a stdio gateway on one session, in either era', async () => {
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(await mkdtemp(join(tmpdir(), 'parley-gateway-')), 'gateway.json');
    await writeFile(file, JSON.stringify(config()));
    const bin = new URL('../../cli/dist/bin.js', import.meta.url).pathname;
    for (const era of ['modern', 'handshake'] as const) {
      const stdio = await host([process.execPath, bin, 'gateway', '--config', file, '--stdio'], era);
      const id = await sessionOf(stdio);
      expect(await sessionOf(stdio, true)).toBe(id);
      expect(await sessionOf(stdio)).toBe(id);
    }
  });
});

interface TestIssuer {
  readonly url: string;
  /** An access token for `user`, for the protected resource at `audience`. */
  token(user: string, audience: string): Promise<string>;
  close(): Promise<void>;
}

/** An authorization server for the guarded gateway: its metadata, its one signing key, tokens. */
async function startIssuer(): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  let url = '';
  const server: Server = createHttpServer((request, response) => {
    const body =
      request.url === '/.well-known/oauth-authorization-server'
        ? {
            issuer: url,
            jwks_uri: `${url}/jwks`,
            authorization_endpoint: `${url}/auth`,
            token_endpoint: `${url}/token`,
          }
        : request.url === '/jwks'
          ? { keys: [jwk] }
          : undefined;
    response
      .writeHead(body ? 200 : 404, { 'content-type': 'application/json' })
      .end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    token: (user, audience) =>
      new SignJWT({ scope: '' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
        .setSubject(user)
        .setIssuer(url)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
