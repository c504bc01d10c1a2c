import type { ParleyClient } from '@parley/client';
import { asksOnlyOverHandshake } from '@parley/client/raw';

/**
 * Whether a failed tool result reads as "this tool cannot ask on 2026-07-28": some servers offer
 * 2026-07-28 but ask their questions only as server-to-client requests, which that revision removed
 * (FastMCP 4.0's `ctx.elicit`: "elicitation via server-initiated requests is unavailable on
 * 2026-07-28 connections."). Such a tool works on the handshake era, so the person is told how to
 * get there; so does the Python SDK 2.3's JSON-RPC error ("Cannot send 'elicitation/create': this
 * transport context has no back-channel for server-initiated requests"). A heuristic on the server's
 * own words: only a failure on a modern connection that says so counts.
 */
export function needsHandshakeEra(
  client: Pick<ParleyClient, 'era'>,
  isError: boolean,
  text: string,
): boolean {
  if (!isError || client.era !== 'modern') return false;
  return asksOnlyOverHandshake(text);
}

/** The line parley prints when `needsHandshakeEra` holds. */
export function handshakeEraHint(serverName: string): string {
  return `parley: ${serverName} answered on 2026-07-28 that this tool needs the older handshake era; try again with --era handshake\n`;
}
