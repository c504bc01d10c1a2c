import type { Listening, ParleyServer } from '@parley/server';
import { jwtVerifier, protectedResource } from '@parley/server/oauth';

/** Where the endpoint listens, and who issues the access tokens it accepts. */
export interface HttpSettings {
  readonly port: number;
  readonly host?: string;
  /** Your authorization server's issuer identifier, e.g. https://auth.example.com. */
  readonly issuer: string;
  /** Where its signing keys are. Default: the jwks_uri of its metadata. */
  readonly jwksUri?: string;
}

/** The scope a token needs to call book_table. */
export const BOOKING_SCOPE = 'tables:book';

/**
 * The settings from the environment: PORT (default 3000), HOST (default loopback), OAUTH_ISSUER
 * (required) and OAUTH_JWKS_URI.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv): HttpSettings {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  const issuer = env.OAUTH_ISSUER;
  if (!issuer) {
    throw new Error(
      'Set OAUTH_ISSUER to your authorization server, e.g. OAUTH_ISSUER=https://auth.example.com npm start',
    );
  }
  return {
    port,
    issuer,
    ...(env.HOST ? { host: env.HOST } : {}),
    ...(env.OAUTH_JWKS_URI ? { jwksUri: env.OAUTH_JWKS_URI } : {}),
  };
}

/**
 * Serves the app on one HTTP endpoint, /mcp, for both protocol eras, as an OAuth 2.1 protected
 * resource: a request needs a JWT access token from the issuer, made out to this endpoint, and
 * book_table needs the scope tables:book. The token's subject is ctx.user in the tools.
 */
export function serveHttp(app: ParleyServer, settings: HttpSettings): Promise<Listening> {
  const protection = protectedResource({
    authorizationServers: [settings.issuer],
    verify: jwtVerifier({
      issuer: settings.issuer,
      ...(settings.jwksUri ? { jwksUri: settings.jwksUri } : {}),
    }),
    scopesSupported: [BOOKING_SCOPE],
    requiredScopes: { tools: { book_table: [BOOKING_SCOPE] } },
  });
  return app.listen({
    port: settings.port,
    ...(settings.host ? { host: settings.host } : {}),
    ...protection,
  });
}
