import type { FlowKind } from './flows/flow.js';
import type { BalancerChannel } from './lb/channel.js';
import { toolCall } from './mcp/modern-call.js';
import { outcomeOf, unclearReason } from './mcp/outcome.js';
import { type Tokens, USERS, type UserName } from './users.js';

/** A flow as the audit sees it: flows that book something can find their own unique booking. */
export interface AuditedFlow {
  readonly id: number;
  readonly kind: FlowKind;
  readonly user: UserName;
  readonly status: string;
  /** `2025` for a 2025-era flow (named so in the audit's lists). */
  readonly era?: string;
  readonly flow: object;
}

function booker(flow: object): { bookingsIn(data: Record<string, unknown>): unknown[] } | undefined {
  return 'bookingsIn' in flow && typeof flow.bookingsIn === 'function'
    ? (flow as { bookingsIn(data: Record<string, unknown>): unknown[] })
    : undefined;
}

/** The store after the load: every booking flow's booking exactly once, and nothing else. */
export interface BookingAudit {
  /** Returns and flights in the store. */
  readonly bookings: number;
  /** Completed booking flows checked. */
  readonly flows: number;
  /** Completed flows whose booking is not in the store. */
  readonly missing: string[];
  /** Flows whose booking is in the store more than once. */
  readonly doubled: string[];
  /** Bookings no flow made. */
  readonly orphans: number;
}

/** Reads every user's bookings (through the balancer) and matches them to the flows that made them. */
export async function auditBookings(
  channel: BalancerChannel,
  tokens: Tokens,
  results: readonly AuditedFlow[],
): Promise<BookingAudit> {
  const audit = { bookings: 0, flows: 0, missing: [] as string[], doubled: [] as string[], orphans: 0 };
  let matched = 0;
  for (const user of USERS) {
    const data = await listBookings(channel, tokens[user.name]);
    audit.bookings += ((data.returns ?? []) as unknown[]).length + ((data.flights ?? []) as unknown[]).length;
    for (const result of results) {
      const flow = booker(result.flow);
      if (result.user !== user.name || !flow) continue;
      const found = flow.bookingsIn(data).length;
      matched += found;
      if (result.status !== 'completed') continue;
      audit.flows++;
      const name = `${result.era === '2025' ? '2025 ' : ''}${result.kind} flow ${result.id} (${user.name})`;
      if (found === 0) audit.missing.push(name);
      if (found > 1) audit.doubled.push(`${name}: ${found} bookings`);
    }
  }
  audit.orphans = audit.bookings - matched;
  return audit;
}

async function listBookings(channel: BalancerChannel, token: string): Promise<Record<string, unknown>> {
  for (let attempt = 1; ; attempt++) {
    const reply = await channel.send(toolCall({ tool: 'list_bookings', token, clientName: 'fleet-audit' }));
    const outcome = outcomeOf(reply);
    if (unclearReason(reply) === undefined && outcome.kind === 'complete' && !outcome.isError)
      return outcome.data;
    if (attempt === 5) throw new Error(`list_bookings failed for the audit: ${JSON.stringify(outcome)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
