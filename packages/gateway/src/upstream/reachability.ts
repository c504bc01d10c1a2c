import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

const GONE_CODES = new Set<string>([
  SdkErrorCode.ConnectionClosed,
  SdkErrorCode.SendFailed,
  SdkErrorCode.NotConnected,
]);
const GONE_WORDS =
  /ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EHOSTUNREACH|socket hang up|other side closed|fetch failed/i;

/**
 * Whether an error means the upstream cannot be reached (its process or connection is gone), as
 * opposed to an answer it gave. A stateless 2026-07-28 upstream over HTTP holds no connection that
 * could tell the gateway it went away: a request failing so is how the gateway learns it.
 */
export function isUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof SdkError && GONE_CODES.has(cause.code)) return true;
    if (GONE_WORDS.test(cause.message) || GONE_WORDS.test(String((cause as { code?: unknown }).code ?? '')))
      return true;
  }
  return false;
}
