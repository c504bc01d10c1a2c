import type { JWK } from 'jose';

/** A client registered with one authorization server. */
export interface StoredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** How it authenticates at the token endpoint. */
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
}

/**
 * How a client proves itself at the token endpoint (RFC 7591 `token_endpoint_auth_method`):
 * `client_secret_basic`, `client_secret_post`, `private_key_jwt` (RFC 7523: a JWT signed with the
 * client's key, which is never stored) or `none` (a public client).
 */
export type TokenEndpointAuthMethod =
  | 'client_secret_basic'
  | 'client_secret_post'
  | 'private_key_jwt'
  | 'none';

/** The tokens one sign-in produced. */
export interface StoredTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Milliseconds since the epoch; absent when the server did not say. */
  readonly expiresAt?: number;
  /** The scopes the client asked for (space separated), so step-up can ask for their union. */
  readonly requestedScope?: string;
  /**
   * `dpop`: the token is bound to the record's DPoP key and is sent with a fresh proof each time
   * (RFC 9449); absent or `bearer`: a bearer token.
   */
  readonly tokenType?: 'bearer' | 'dpop';
}

/** The key DPoP proofs are signed with (RFC 9449): its JWS algorithm and the private JWK. */
export interface StoredDpopKey {
  readonly alg: string;
  readonly jwk: JWK;
}

/**
 * Everything a host keeps about one protected server: the authorization server it signed in
 * with, the client registered there, and the tokens. A record never mixes authorization
 * servers: when the server moves to another one, the client and tokens are dropped together.
 */
export interface StoredAuth {
  /** The MCP server's URL, as the client connects to it. */
  readonly server: string;
  /** The resource identifier from the server's protected resource metadata (RFC 9728). */
  readonly resource: string;
  /** The authorization server's issuer identifier. */
  readonly issuer: string;
  readonly client: StoredClient;
  readonly tokens?: StoredTokens;
  /**
   * How the tokens were obtained when no person signed in: `client_credentials`, `jwt_bearer`
   * (workload identity) or `enterprise` (an identity assertion from the company's identity
   * provider). Absent: the authorization code flow.
   */
  readonly grant?: string;
  /**
   * The DPoP key the tokens are bound to. It is a secret like the tokens: kept in the same store,
   * never logged, dropped with them.
   */
  readonly dpopKey?: StoredDpopKey;
}

/**
 * Where a host keeps sign-ins, one record per server URL. `memoryStore()` forgets them when the
 * process ends; `fileStore(path)` (from `@parley/client/oauth`) keeps them in a file only the
 * user can read.
 */
export interface OAuthStore {
  load(server: string): Promise<StoredAuth | undefined>;
  save(record: StoredAuth): Promise<void>;
  delete(server: string): Promise<void>;
}

/** A store that keeps records in memory for the life of the process. */
export function memoryStore(): OAuthStore {
  const records = new Map<string, StoredAuth>();
  return {
    load: async (server) => records.get(server),
    save: async (record) => {
      records.set(record.server, record);
    },
    delete: async (server) => {
      records.delete(server);
    },
  };
}
