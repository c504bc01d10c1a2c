/** A client registered with one authorization server. */
export interface StoredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** `client_secret_basic`, `client_secret_post` or `none`. */
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
}

/** How a client proves itself at the token endpoint (RFC 7591 `token_endpoint_auth_method`). */
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/** The tokens one sign-in produced. */
export interface StoredTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Milliseconds since the epoch; absent when the server did not say. */
  readonly expiresAt?: number;
  /** The scopes the client asked for (space separated), so step-up can ask for their union. */
  readonly requestedScope?: string;
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
