import type { FetchLike } from '@modelcontextprotocol/client';
import * as oauth from 'oauth4webapi';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * oauth4webapi request options: the host's fetch, and plain HTTP allowed only when the
 * authorization server is on this machine (a development or test server). Anywhere else it must
 * be HTTPS.
 */
export function requestOptions(
  issuer: string,
  fetchFn: FetchLike,
): {
  [oauth.customFetch]: typeof fetch;
  [oauth.allowInsecureRequests]?: boolean;
} {
  return {
    [oauth.customFetch]: fetchFn as typeof fetch,
    ...(isLoopbackHttp(issuer) && { [oauth.allowInsecureRequests]: true }),
  };
}

export function isLoopbackHttp(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname);
  } catch {
    return false;
  }
}
