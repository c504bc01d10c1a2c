import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Logger } from '@parley/server';
import { STORE_SCOPE } from './auth.js';
import type { ServiceClient } from './auth-server/service-clients.js';
import { type AuthServer, listenAuthServer } from './auth-server/start.js';
import { resolveDataDir } from './data-dir.js';
import { openStore, type Store } from './db.js';
import { DEMO_USERS } from './demo-users.js';
import { fleetFromEnv } from './fleet-env.js';
import { newSecret } from './secrets.js';
import { type Served, serveOnLoopback } from './serve-http.js';
import { createBrightgrid, MCP_PATH } from './server.js';

export interface BrightgridHttpOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Default `BRIGHTGRID_DATA`, else a folder in the system temp folder. */
  readonly dataDir?: string;
  /**
   * Where browsers and clients reach Brightgrid when it runs behind a proxy or load balancer, e.g.
   * `http://127.0.0.1:8080`: connect links and the store pages' origin checks use it. Default
   * `BRIGHTGRID_PUBLIC_URL`, else the address it listens on.
   */
  readonly publicUrl?: string;
  readonly log?: Logger;
  /**
   * Also start Brightgrid ID, the authorization server (oidc-provider) on loopback: `/mcp` then
   * accepts its access tokens and challenges clients to sign in, and the store's pages sign people
   * in there. `true` picks a free port. `accessTokens: 'opaque'` issues opaque access tokens that
   * Brightgrid checks by introspection (RFC 7662) instead of JWTs it checks with the issuer's keys.
   * Default: off (API tokens and the password page only).
   */
  readonly authServer?:
    | boolean
    | {
        readonly port?: number;
        readonly accessTokens?: 'jwt' | 'opaque';
        /** Seconds an access token lives (default 600). */
        readonly accessTokenTtl?: number;
        /** More services that sign in with client credentials (beside the demo agent). */
        readonly serviceClients?: readonly ServiceClient[];
      };
}

/** Brightgrid ID, when it runs beside Brightgrid. */
export interface BrightgridIdentity {
  /** Its issuer identifier, e.g. `http://127.0.0.1:4101`. */
  readonly issuer: string;
  /** The credentials a resource server uses at its introspection endpoint (RFC 7662). */
  readonly introspection: { readonly clientId: string; readonly clientSecret: string };
  /**
   * The demo agent: a service that signs in with client credentials (a fresh secret each start)
   * and acts for alice.
   */
  readonly agent: { readonly clientId: string; readonly clientSecret: string; readonly actsFor: string };
  /**
   * The demo's own Parley lab, registered with Brightgrid ID from the start (an app on this
   * computer: PKCE, a loopback redirect on any port), so its pages do not call it unverified.
   */
  readonly lab: { readonly clientId: string };
}

/** The client id of the demo's own lab at Brightgrid ID. */
export const DEMO_LAB_CLIENT = {
  clientId: 'parley-lab-demo',
  name: 'Parley lab (started by npm start)',
  redirectUris: ['http://127.0.0.1/oauth/callback'],
  applicationType: 'native',
} as const;

/** A running Brightgrid over HTTP. */
export interface BrightgridHttp {
  /** The MCP endpoint, e.g. `http://127.0.0.1:4100/mcp`. */
  readonly url: string;
  /** The store's site (sign-in page), e.g. `http://127.0.0.1:4100`. */
  readonly origin: string;
  /** A fresh API token per demo user, for `Authorization: Bearer <token>`. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly store: Store;
  /** Brightgrid ID, when started with `authServer`. */
  readonly identity?: BrightgridIdentity;
  /**
   * Stops Brightgrid. `drainMs`: how long 2025-era calls in flight (and requests passed between
   * replicas) may take to end on their own before the rest are ended; a rolling restart with a
   * drain cuts only the calls that outlast it.
   */
  close(options?: { readonly drainMs?: number }): Promise<void>;
}

/**
 * Starts Brightgrid on loopback HTTP: the MCP endpoint at `/mcp` (bearer tokens), the connect pages
 * of URL flows, and the store's own pages beside them.
 *
 * @example
 * const brightgrid = await startBrightgridHttp();
 * console.log(brightgrid.url, brightgrid.tokens.alice);
 */
export async function startBrightgridHttp(options: BrightgridHttpOptions = {}): Promise<BrightgridHttp> {
  const store = openStore({ dir: options.dataDir ?? resolveDataDir() });
  const publicUrl = options.publicUrl ?? (process.env.BRIGHTGRID_PUBLIC_URL || undefined);
  if (publicUrl !== undefined && !URL.canParse(publicUrl)) {
    store.close();
    throw new Error(
      `BRIGHTGRID_PUBLIC_URL must be the http(s) URL clients reach Brightgrid at (got ${publicUrl}).`,
    );
  }
  // With REDIS_URL set, URL flows and 2025-era sessions are shared by every replica behind a balancer.
  const fleet = fleetFromEnv();
  let served: Served;
  let authServer: AuthServer | undefined;
  const storeClient = { clientId: 'brightgrid-store', clientSecret: newSecret() };
  const introspection = { clientId: 'brightgrid-api', clientSecret: newSecret() };
  const agent = { clientId: 'brightgrid-agent', clientSecret: newSecret(), actsFor: 'alice' };
  try {
    if (options.authServer) {
      authServer = await listenAuthServer(
        store,
        options.authServer === true ? 0 : (options.authServer.port ?? 0),
        fleet.signInThrottle,
      );
    }
    const issuer = authServer?.issuer;
    const accessTokens = typeof options.authServer === 'object' ? options.authServer.accessTokens : 'jwt';
    served = await serveOnLoopback(options.port ?? 0, (origin) =>
      createBrightgrid({
        store,
        publicUrl: publicUrl ?? origin,
        ...(fleet.flowStore && { flowStore: fleet.flowStore }),
        ...(fleet.sessionRouter && { sessionRouter: fleet.sessionRouter }),
        ...(fleet.sessionIdPrefix && { sessionIdPrefix: fleet.sessionIdPrefix }),
        ...(fleet.signInThrottle && { signInThrottle: fleet.signInThrottle }),
        ...(fleet.keptLinksPerUser !== undefined && { keptLinksPerUser: fleet.keptLinksPerUser }),
        ...(options.log && { log: options.log }),
        ...(issuer !== undefined && {
          identity: { issuer, ...storeClient, ...(accessTokens === 'opaque' && { introspection }) },
        }),
      }),
    );
  } catch (error) {
    await authServer?.close();
    await fleet.close();
    store.close();
    throw error;
  }
  const tokens = Object.fromEntries(DEMO_USERS.map((user) => [user.name, store.issueToken(user.name)]));
  const origin = publicUrl === undefined ? served.origin : new URL(publicUrl).origin;
  const authSettings = typeof options.authServer === 'object' ? options.authServer : {};
  await authServer?.configure({
    resource: `${origin}${MCP_PATH}`,
    resourceScopes: [STORE_SCOPE],
    ...(authSettings.accessTokens === 'opaque' && { accessTokenFormat: 'opaque' as const }),
    ...(authSettings.accessTokenTtl !== undefined && { accessTokenTtl: authSettings.accessTokenTtl }),
    clients: [
      { ...storeClient, redirectUris: [`${origin}/signin/callback`], firstParty: true },
      DEMO_LAB_CLIENT,
      { ...introspection, redirectUris: [], introspects: true },
    ],
    serviceClients: [agent, ...(authSettings.serviceClients ?? [])],
  });
  return {
    url: `${origin}${MCP_PATH}`,
    origin,
    tokens,
    store,
    ...(authServer !== undefined && {
      identity: {
        issuer: authServer.issuer,
        introspection,
        agent,
        lab: { clientId: DEMO_LAB_CLIENT.clientId },
      },
    }),
    async close(options = {}) {
      await served.close({ ...options, elsewhere: fleet.sessionRouter !== undefined });
      await authServer?.close();
      await fleet.close();
      store.revokeTokens(Object.values(tokens));
      store.close();
    },
  };
}

/** The lines a person needs to use a running Brightgrid. */
export function startupLines(brightgrid: BrightgridHttp): string[] {
  return [
    `Brightgrid: ${brightgrid.url}`,
    ...(brightgrid.identity
      ? [
          `Brightgrid ID (sign-in): ${brightgrid.identity.issuer}`,
          `Agent sign-in (client credentials, acts for ${brightgrid.identity.agent.actsFor}): PARLEY_CLIENT_SECRET=${brightgrid.identity.agent.clientSecret} parley tools ${brightgrid.url} --client-id ${brightgrid.identity.agent.clientId} --issuer ${brightgrid.identity.issuer}`,
        ]
      : []),
    `Store sign-in: ${brightgrid.origin}/signin (${DEMO_USERS.map((u) => `${u.name} / ${u.password}`).join(', or ')})`,
    ...Object.entries(brightgrid.tokens).map(
      ([user, token]) => `Token for ${user}: Authorization: Bearer ${token}`,
    ),
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      oauth: { type: 'boolean', default: false },
      'agent-key': { type: 'string' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port takes a port number from 0 to 65535 (got ${values.port}).`);
  }
  let brightgrid: BrightgridHttp | undefined;
  // Listen for signals before printing: whoever reads the lines may stop us at once.
  // A stop (a rolling restart) lets the calls in flight end first: BRIGHTGRID_DRAIN_MS, default 3 s.
  const drainMs = Number(process.env.BRIGHTGRID_DRAIN_MS ?? 3000);
  const stop = () =>
    void Promise.resolve(brightgrid?.close({ drainMs: Number.isFinite(drainMs) ? drainMs : 3000 })).then(() =>
      process.exit(0),
    );
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // --oauth: Brightgrid ID beside it, and /mcp challenges clients without a token to sign in there.
  // --agent-key <public key file>: one more service, which signs in with a JWT signed by that key.
  const keyed = values['agent-key'] === undefined ? undefined : keyedAgent(values['agent-key']);
  if (keyed !== undefined && !values.oauth) throw new Error('--agent-key needs --oauth');
  brightgrid = await startBrightgridHttp({
    port,
    authServer: values.oauth && (keyed === undefined ? true : { serviceClients: [keyed] }),
  });
  const keyedLine =
    keyed === undefined
      ? []
      : [
          `Keyed agent sign-in (private-key JWT, acts for ${keyed.actsFor}): parley tools ${brightgrid.url} --client-id ${keyed.clientId} --client-key <its private key> --issuer ${brightgrid.identity!.issuer}`,
        ];
  process.stdout.write(`${[...startupLines(brightgrid), ...keyedLine].join('\n')}\n`);
}

/** A service that signs in with JWTs signed by the private half of the public key in `file` (PEM or JWK). */
function keyedAgent(file: string): ServiceClient {
  const text = readFileSync(file, 'utf8');
  const key = text.trimStart().startsWith('{')
    ? createPublicKey({ key: JSON.parse(text), format: 'jwk' })
    : createPublicKey(text);
  const jwk = key.export({ format: 'jwk' });
  const alg = key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? { alg: 'ES256' } : {};
  return { clientId: 'brightgrid-keyed-agent', actsFor: 'bob', jwks: { keys: [{ ...jwk, ...alg }] } };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
