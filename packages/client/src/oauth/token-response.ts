import type * as oauth from 'oauth4webapi';
import type { StoredTokens } from './store.js';

/** The part of a token response a host keeps. */
export function tokensFrom(
  response: oauth.TokenEndpointResponse,
  requestedScope: string | undefined,
): StoredTokens {
  return {
    accessToken: response.access_token,
    ...(response.refresh_token !== undefined && { refreshToken: response.refresh_token }),
    ...(response.expires_in !== undefined && { expiresAt: Date.now() + response.expires_in * 1000 }),
    ...(requestedScope !== undefined && { requestedScope }),
    // oauth4webapi lower-cases token_type and accepts only bearer and dpop.
    ...(response.token_type === 'dpop' && { tokenType: 'dpop' as const }),
  };
}
