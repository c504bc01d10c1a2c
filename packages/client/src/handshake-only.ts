/**
 * Whether a failure a server reported on 2026-07-28 reads as "this tool can only ask over the
 * 2025 handshake": some servers offer 2026-07-28 but ask their questions only as server-to-client
 * requests, which that revision removed. FastMCP 4.0's `ctx.elicit` says "elicitation via
 * server-initiated requests is unavailable on 2026-07-28 connections." (a tool error); the Python
 * SDK 2.3 says "Cannot send 'elicitation/create': this transport context has no back-channel for
 * server-initiated requests" (a JSON-RPC error). A heuristic on the server's own words.
 *
 * @example
 * asksOnlyOverHandshake('no back-channel for server-initiated requests'); // true
 */
export function asksOnlyOverHandshake(text: string): boolean {
  if (/no back-channel for server-initiated requests/i.test(text)) return true;
  return (
    /2026-07-28/.test(text) &&
    /(unavailable|not (available|supported)|unsupported|requires?|only)/i.test(text)
  );
}
