import * as oauth from 'oauth4webapi';
import { messageOf } from './discovery.js';

/**
 * Runs a token request (sending and reading the answer); when the authorization server answers
 * `use_dpop_nonce` (RFC 9449 §8), runs it once more: the DPoP handle has kept the nonce it gave.
 */
export async function withDpopNonceRetry<T>(
  dpop: oauth.DPoPHandle | undefined,
  request: () => Promise<T>,
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (dpop === undefined || !oauth.isDPoPNonceError(error)) throw error;
    return request();
  }
}

/** Longest part of an authorization server's error description a message quotes. */
const MAX_DESCRIPTION = 200;

/**
 * Why a token request failed, for a message: the OAuth error code and the server's description
 * (shortened, control characters removed: it is text from the network), or the local failure.
 */
export function describeTokenError(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) {
    const description = clean(error.error_description);
    return `${error.error}${description ? `: ${description}` : ''} (HTTP ${error.status})`;
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    // A 401 with a challenge: the client's authentication was refused (RFC 6749 §5.2).
    const parameters = error.cause[0]?.parameters;
    const description =
      clean(parameters?.error_description) ??
      (error.status === 401 ? "the client's id, secret or key was not accepted" : undefined);
    const code = parameters?.error ?? (error.status === 401 ? 'invalid_client' : 'refused');
    return `${code}${description ? `: ${description}` : ''} (HTTP ${error.status})`;
  }
  return messageOf(error);
}

function clean(text: string | undefined): string | undefined {
  const cleaned = text
    ?.replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .slice(0, MAX_DESCRIPTION)
    .trim();
  return cleaned === '' ? undefined : cleaned;
}
