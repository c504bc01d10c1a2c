import type { OAuthSession } from '@parley/client/oauth';

/** How long the server may take to answer the probe that asks whether it wants a sign-in. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Before connecting to an HTTP server, signs the person in when the server asks for it, with no
 * clock running: connecting has a request timeout (60 s), and sign-in inside it would fail for a
 * person who opens the lab a minute after it started, or takes a minute to sign in. Resolves at
 * once for a server that wants no sign-in, or cannot be reached (connecting then says why).
 */
export async function signInFirst(target: string, session: OAuthSession): Promise<void> {
  let status: number;
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    status = response.status;
    await response.body?.cancel().catch(() => undefined);
  } catch {
    return;
  }
  if (status === 401) await session.signIn(target);
}
