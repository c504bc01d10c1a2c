import { generateKeyPairSync } from 'node:crypto';
import { connect, scripted } from '@parley/client';
import {
  clientCredentials,
  memoryStore,
  oauthSession,
  SignInError,
  type StoredAuth,
} from '@parley/client/oauth';
import { startRogueSignIn } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrightgridHttp, startBrightgridHttp } from '../src/http.js';
import { freshDataDir } from './processes.js';

// A headless agent signs in to Brightgrid at Brightgrid ID (oidc-provider) with no person and no
// browser: the client credentials grant, once with the demo agent's secret and once with a JWT
// signed by a private key only the agent holds (private_key_jwt), and calls a tool as the store
// user its service acts for. Brightgrid asks for DPoP, so the token is bound to a key the agent
// made (Brightgrid ID demands a nonce in every proof): a copy of the token, sent without a proof
// or with one already used, is refused.

let brightgrid: BrightgridHttp;
const keyPair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const KEYED_AGENT = 'brightgrid-keyed-agent';

beforeAll(async () => {
  const publicJwk = keyPair.publicKey.export({ format: 'jwk' });
  brightgrid = await startBrightgridHttp({
    dataDir: freshDataDir(),
    authServer: {
      serviceClients: [
        { clientId: KEYED_AGENT, actsFor: 'bob', jwks: { keys: [{ ...publicJwk, alg: 'ES256' }] } },
      ],
    },
  });
});
afterAll(async () => {
  await brightgrid?.close();
});

const text = (result: { content?: unknown }) => ((result.content ?? []) as { text?: string }[])[0]?.text;
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/** What each way of signing in is: its grant, and the user the service acts for. */
const ways = () =>
  [
    [
      'a client secret',
      clientCredentials({
        clientId: brightgrid.identity!.agent.clientId,
        clientSecret: brightgrid.identity!.agent.clientSecret,
        issuer: brightgrid.identity!.issuer,
      }),
      'alice',
      'Alice Liddell',
    ],
    [
      'a private-key JWT',
      clientCredentials({
        clientId: KEYED_AGENT,
        privateKey: keyPair.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
        issuer: brightgrid.identity!.issuer,
      }),
      'bob',
      'Bob Okafor',
    ],
  ] as const;

describe.each(['modern', 'handshake'] as const)('%s era', (era) => {
  it.each(['a client secret', 'a private-key JWT'])(
    'an agent signs in with %s and calls a tool as its user',
    async (way) => {
      const [, grant, user, name] = ways().find(([label]) => label === way)!;
      const store = memoryStore();
      const session = oauthSession({ grant, store });
      const client = await connect(brightgrid.url, {
        era,
        fetch: session.fetch,
        ui: scripted({}),
        clientInfo: { name: 'headless agent', version: '1.0.0' },
      });
      try {
        // The tool ran as the agent's user: their own orders, and nobody else's.
        const orders = user === 'alice' ? /^Order #1002: .*\nOrder #1001: / : /^Order #2001: Smart plug/;
        expect(text(await client.callTool('list_bookings'))).toMatch(orders);
        expect(name).toBeTruthy();
      } finally {
        await client.close();
      }
      const record = (await store.load(brightgrid.url)) as StoredAuth;
      expect(record).toMatchObject({ grant: 'client_credentials', issuer: brightgrid.identity!.issuer });
      expect(record.tokens?.tokenType).toBe('dpop');
      expect(record.tokens?.refreshToken).toBeUndefined();
      expect(claimsOf(record.tokens!.accessToken)).toMatchObject({
        sub: user,
        client_id: grant.clientId,
        aud: brightgrid.url,
        scope: 'store',
        cnf: { jkt: expect.any(String) },
      });
      // The secret and the private key are never kept; the DPoP key is, beside the tokens.
      const kept = JSON.stringify(record);
      expect(kept).not.toContain(brightgrid.identity!.agent.clientSecret);
      expect(kept).not.toContain(keyPair.privateKey.export({ format: 'jwk' }).d);
      expect(record.dpopKey?.jwk.d).toEqual(expect.any(String));
    },
  );
});

describe('a DPoP-bound token', () => {
  it('is refused when replayed without its proof, or with a proof already used', async () => {
    const store = memoryStore();
    const seen: { authorization: string; dpop: string }[] = [];
    const session = oauthSession({
      grant: ways()[0][1],
      store,
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        const dpop = headers.get('dpop');
        if (String(input) === brightgrid.url && dpop !== null)
          seen.push({ authorization: headers.get('authorization')!, dpop });
        return fetch(input, init);
      },
    });
    const client = await connect(brightgrid.url, { era: 'modern', fetch: session.fetch, ui: scripted({}) });
    try {
      await client.callTool('list_bookings');
    } finally {
      await client.close();
    }
    const token = (await store.load(brightgrid.url))!.tokens!.accessToken;
    const captured = seen.at(-1)!;
    expect(captured.authorization).toBe(`DPoP ${token}`);

    const call = (headers: Record<string, string>) =>
      fetch(brightgrid.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    const asBearer = await call({ authorization: `Bearer ${token}` });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get('www-authenticate')).toContain('This access token is bound to a key (DPoP)');
    const noProof = await call({ authorization: `DPoP ${token}` });
    expect(noProof.status).toBe(401);
    expect(noProof.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"');
    const replayed = await call({ authorization: captured.authorization, dpop: captured.dpop });
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get('www-authenticate')).toContain('was used before');
  });
});

describe('credentials Brightgrid ID refuses', () => {
  it('a wrong secret: the sign-in fails with the reason and nothing is stored', async () => {
    const store = memoryStore();
    const session = oauthSession({
      grant: clientCredentials({
        clientId: brightgrid.identity!.agent.clientId,
        clientSecret: 'not-the-secret',
        issuer: brightgrid.identity!.issuer,
      }),
      store,
    });
    const failure = session.signIn(brightgrid.url);
    await expect(failure).rejects.toThrow(SignInError);
    await expect(failure).rejects.toThrow(/refused the client credentials grant: invalid_client/);
    await expect(failure).rejects.not.toThrow(/not-the-secret/);
    expect(await store.load(brightgrid.url)).toBeUndefined();
  });

  it('credentials pinned to another issuer are never sent', async () => {
    const requests: string[] = [];
    const session = oauthSession({
      grant: clientCredentials({
        clientId: brightgrid.identity!.agent.clientId,
        clientSecret: brightgrid.identity!.agent.clientSecret,
        issuer: 'https://auth.example.com',
      }),
      fetch: async (input, init) => {
        requests.push(String(input));
        return fetch(input, init);
      },
    });
    await expect(session.signIn(brightgrid.url)).rejects.toThrow(
      /credentials given are for https:\/\/auth\.example\.com; nothing was sent/,
    );
    expect(requests.some((url) => url.endsWith('/token'))).toBe(false);
  });

  // Issue 41, finding 7: with no issuer, the secret went to whatever authorization server a server
  // named. Now the first one it goes to is pinned, with a warning, and no other receives it.
  it('credentials with no issuer go to the first authorization server only, with a warning', async () => {
    const rogue = await startRogueSignIn();
    try {
      const warnings: string[] = [];
      const session = oauthSession({
        grant: clientCredentials({
          clientId: brightgrid.identity!.agent.clientId,
          clientSecret: brightgrid.identity!.agent.clientSecret,
        }),
        onWarning: (message) => warnings.push(message),
      });
      await session.signIn(brightgrid.url);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`sends sign-ins to ${brightgrid.identity!.issuer}`);
      expect(warnings[0]).toContain(`--issuer ${brightgrid.identity!.issuer}`);

      await expect(session.signIn(rogue.mcpUrl)).rejects.toThrow(
        `sends sign-ins to ${rogue.issuer}, but the credentials given are for ${brightgrid.identity!.issuer}; nothing was sent`,
      );
      expect(rogue.tokenRequests).toEqual([]);
    } finally {
      await rogue.stop();
    }
  });
});
