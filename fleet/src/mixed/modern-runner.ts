import type { Agent } from 'node:http';
import type { BookingFlow } from '../flows/rounds-flow.js';
import { type HttpReply, send } from '../lb/send.js';
import { unclearReason } from '../mcp/outcome.js';
import type { TokenUse } from '../token-use.js';
import { type EraResult, type FlowPlace, placeText } from './era-result.js';

/** Unclear failures of one flow before it gives up. */
const MAX_RETRIES = 8;

/**
 * Runs one 2026-07-28 flow to its end on its own, concurrently with others (no global request
 * order): each round goes wherever the balancer sends it. Unclear failures are retried the way the
 * sequential driver does (a side-effect round is checked with `list_bookings` first).
 */
export async function runModernFlow(
  flow: BookingFlow,
  origin: string,
  agent: Agent,
  tokenUse: TokenUse,
): Promise<EraResult> {
  let retries = 0;
  let retriedFor: string | undefined;
  const retriedAt: string[] = [];
  let at: FlowPlace | undefined;
  const end = (status: EraResult['status'], reason?: string, recovered = false): EraResult => ({
    ...(retriedFor !== undefined && { retriedFor, retriedAt }),
    era: '2026-07-28',
    id: flow.id,
    kind: flow.kind,
    user: flow.user,
    status,
    retries,
    recovered,
    flow,
    ...(reason !== undefined && { reason }),
    ...(status !== 'completed' && at !== undefined && { at }),
  });
  for (;;) {
    const step = flow.step();
    const release = tokenUse.hold(step.call.headers.authorization ?? '');
    const reply = await send(origin, step.call, undefined, agent).finally(release);
    const upstream = String(reply.headers['x-upstream'] ?? '')
      .split(',')
      .at(-1)
      ?.trim();
    at = { step: step.label, replica: upstream || undefined };
    const unclear = unclearOf(reply);
    if (unclear !== undefined) {
      retriedFor ??= unclear;
      retriedAt.push(`${unclear.slice(0, 120)}${placeText(at)}`);
      if (++retries > MAX_RETRIES)
        return end('failed', `gave up after ${retries} unclear failures; last: ${unclear}`);
      flow.unclear();
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** Math.min(retries, 5))));
      continue;
    }
    const progress = flow.handle({ ...reply, replica: upstream || undefined, tried: [] });
    if (progress.status === 'continue') continue;
    if (progress.status === 'completed') return end('completed', undefined, progress.recovered === true);
    return end(progress.status, progress.reason);
  }
}

/**
 * An unclear failure: no response, 502/503/504, a replica shutting down, or a 401 for a token a
 * replica revoked as it stopped gracefully (the next try takes the tokens in use then).
 */
function unclearOf(reply: HttpReply): string | undefined {
  if (reply.status === 401) return 'HTTP 401: the token was revoked by a replica that stopped';
  return unclearReason(reply);
}
