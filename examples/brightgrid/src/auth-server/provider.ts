import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, {
  type ClientMetadata,
  type Configuration,
  errors,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { Store } from '../db.js';
import { redirectUriProblem, reservedNameProblem } from './app-names.js';
import { memoryStorage } from './memory-adapter.js';
import { REGISTRATION_LIMITS, type RegistrationLimits, registrationGuard } from './registration-guard.js';
import {
  ASSERTION_ALGS,
  actingSubject,
  type ServiceClient,
  serviceClientMetadata,
} from './service-clients.js';

/** A client the authorization server knows from the start (not registered over the network). */
export interface FixedClient {
  readonly clientId: string;
  /** Absent for an app on the person's computer (a public client: PKCE, no secret). */
  readonly clientSecret?: string;
  /**
   * `native`: an app on the person's computer with a loopback redirect, whose port may differ at
   * each start (RFC 8252 §7.3); it signs in with PKCE and no secret, and may stay signed in.
   */
  readonly applicationType?: 'native';
  /** The name the sign-in and consent pages show (default: the client id). */
  readonly name?: string;
  /** Empty for a client that only calls the introspection endpoint. */
  readonly redirectUris: readonly string[];
  /** First-party: the person is not asked to consent (the store signing in to its own site). */
  readonly firstParty?: boolean;
  /** A resource server: may introspect access tokens issued for the resource (RFC 7662). */
  readonly introspects?: boolean;
}

export interface AuthProviderOptions {
  /** The issuer identifier, e.g. `http://127.0.0.1:4101`. */
  readonly issuer: string;
  readonly store: Store;
  /** The one resource (RFC 8707) this server issues access tokens for: Brightgrid's MCP endpoint. */
  readonly resource: string;
  /** The scopes an access token for the resource may carry. */
  readonly resourceScopes: readonly string[];
  readonly clients: readonly FixedClient[];
  /** Services that sign in as themselves (client credentials), each acting for a store user. */
  readonly serviceClients?: readonly ServiceClient[];
  /** `jwt` (default): verified with the issuer's keys; `opaque`: verified by introspection. */
  readonly accessTokenFormat?: 'jwt' | 'opaque';
  /** Seconds an access token lives. Default 600. */
  readonly accessTokenTtl?: number;
  /** How much apps may register themselves, per address. */
  readonly registration?: Partial<RegistrationLimits>;
}

/** The signing algorithm of ID tokens and JWT access tokens. */
const ALG = 'ES256';

/**
 * Brightgrid ID, the demo's OpenID Provider (oidc-provider): people are the store's users (the
 * subject is the user name), MCP clients register themselves (RFC 7591) or come pre-registered,
 * and access tokens are JWTs (RFC 9068) for Brightgrid's MCP endpoint only (RFC 8707 resource
 * indicators), with PKCE required and `iss` in every authorization response (RFC 9207). Services
 * sign in with client credentials (a secret or a private-key JWT), and any client may bind its
 * tokens to a key with DPoP (RFC 9449), always with a server nonce.
 */
export async function createAuthProvider(options: AuthProviderOptions): Promise<Provider> {
  const { publicKey: _public, privateKey } = await generateKeyPair(ALG, { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    kid: `brightgrid-${Date.now()}`,
    alg: ALG,
    use: 'sig',
  };
  const firstParty = new Set(options.clients.filter((c) => c.firstParty).map((c) => c.clientId));
  const introspectors = new Set(options.clients.filter((c) => c.introspects).map((c) => c.clientId));
  const resourceScope = options.resourceScopes.join(' ');
  const ttl = options.accessTokenTtl ?? 600;
  const services = options.serviceClients ?? [];
  const registration = { ...REGISTRATION_LIMITS, ...options.registration };
  const storage = memoryStorage({ unusedClientTtlSeconds: registration.unusedTtlSeconds });

  const configuration: Configuration = {
    adapter: storage.Adapter,
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    clients: [...options.clients.map(fixedClientMetadata), ...services.map(serviceClientMetadata)],
    clientDefaults: {
      id_token_signed_response_alg: ALG,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    },
    // Every client's redirect URIs, and the name a self-registered app gives itself, are checked
    // here (oidc-provider runs this for every client it reads, so it must not depend on when).
    extraClientMetadata: {
      properties: ['client_name', 'redirect_uris'],
      validator(ctx, key, value, metadata) {
        if (key === 'redirect_uris') {
          for (const uri of (value as string[] | undefined) ?? []) {
            const problem = redirectUriProblem(uri);
            if (problem !== undefined) throw new errors.InvalidClientMetadata(problem);
          }
        }
        if (key === 'client_name' && ctx?.oidc?.route === 'registration') {
          const problem = reservedNameProblem(value, (metadata.redirect_uris as string[] | undefined) ?? []);
          if (problem !== undefined) throw new errors.InvalidClientMetadata(problem);
        }
      },
    },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'] },
    async findAccount(_ctx, id) {
      const user = options.store.user(id);
      if (user === undefined) return undefined;
      return {
        accountId: user.name,
        claims: async () => ({
          sub: user.name,
          name: user.displayName,
          preferred_username: user.name,
          email: user.email,
        }),
      };
    },
    pkce: { required: () => true },
    enabledJWA: {
      clientAuthSigningAlgValues: ASSERTION_ALGS as never,
      dPoPSigningAlgValues: ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'],
    },
    formats: { customizers: { jwt: actingSubject(services) } },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) =>
          // Only a resource server may introspect, and only tokens for itself.
          introspectors.has(client.clientId) &&
          (token.kind !== 'AccessToken' || token.aud === options.resource),
      },
      revocation: { enabled: true },
      clientCredentials: { enabled: true },
      // Tokens bound to the client's key (RFC 9449), with a nonce from this server in every proof.
      dPoP: { enabled: true, nonceSecret: randomBytes(32), requireNonce: () => true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? (undefined as unknown as string),
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          if (indicator !== options.resource) {
            throw new errors.InvalidTarget(
              `this authorization server issues tokens only for ${options.resource}`,
            );
          }
          return {
            scope: resourceScope,
            audience: options.resource,
            accessTokenTTL: ttl,
            ...(options.accessTokenFormat === 'opaque'
              ? { accessTokenFormat: 'opaque' as const }
              : { accessTokenFormat: 'jwt' as const, jwt: { sign: { alg: ALG } } }),
          };
        },
      },
      rpInitiatedLogout: { enabled: false },
    },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, provider } = ctx.oidc;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session?.grantIdFor(client!.clientId);
      if (grantId) return provider.Grant.find(grantId);
      // The store's own site signing in: nothing to consent to.
      if (client !== undefined && firstParty.has(client.clientId) && session?.accountId !== undefined) {
        const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
        grant.addOIDCScope('openid profile email');
        await grant.save();
        return grant;
      }
      return undefined;
    },
    // OpenID Connect grants offline_access only with prompt=consent, which MCP clients do not send;
    // a client registered for the refresh_token grant gets refresh tokens (the consent page says so).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    clientBasedCORS: () => false,
    renderError(ctx, out) {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `Sign-in failed: ${out.error}${out.error_description ? `: ${out.error_description}` : ''}`;
    },
    ttl: {
      AccessToken: ttl,
      AuthorizationCode: 60,
      ClientCredentials: ttl,
      IdToken: 600,
      Interaction: 3600,
      RefreshToken: 14 * 86_400,
      Session: 14 * 86_400,
      Grant: 14 * 86_400,
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.use(registrationGuard(storage, registration));
  return provider;
}

/** What oidc-provider knows of a client configured from the start. */
function fixedClientMetadata(client: FixedClient): ClientMetadata {
  const signsIn = client.redirectUris.length > 0;
  return {
    client_id: client.clientId,
    ...(client.name !== undefined && { client_name: client.name }),
    redirect_uris: [...client.redirectUris],
    ...(client.clientSecret === undefined
      ? {
          token_endpoint_auth_method: 'none',
          application_type: client.applicationType ?? 'web',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        }
      : {
          client_secret: client.clientSecret,
          token_endpoint_auth_method: 'client_secret_basic',
          grant_types: signsIn ? ['authorization_code'] : [],
          response_types: signsIn ? ['code'] : [],
        }),
  };
}
