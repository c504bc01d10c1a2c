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
    const description = error.error_description
      ?.replace(/[\p{Cc}\p{Cf}]/gu, ' ')
      .slice(0, MAX_DESCRIPTION)
      .trim();
    return `${error.error}${description ? `: ${description}` : ''} (HTTP ${error.status})`;
  }
  return messageOf(error);
}
