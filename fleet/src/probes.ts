import type { Replayable } from './flows/flight-flow.js';
import type { BalancerChannel } from './lb/channel.js';
import { toolCall } from './mcp/modern-call.js';
import { type Outcome, outcomeOf, unclearReason } from './mcp/outcome.js';
import { otherUser, type Tokens } from './users.js';

/** What presenting states where they do not belong gave. */
export interface ProbeCounts {
  sent: number;
  /** Refused with -32602, as they must be. */
  refused: number;
  /** No clear answer (a replica was down): not counted either way. */
  unclear: number;
  /** Anything else: a state opened for another user or tool. Each one is a wrong. */
  accepted: string[];
}

export function emptyProbeCounts(): ProbeCounts {
  return { sent: 0, refused: 0, unclear: 0, accepted: [] };
}

/**
 * Presents one flow's round (its sealed state and answers) as if it were another user's (same
 * tool) and as another tool's (same user). Both must be refused with -32602 before any handler
 * runs: a state is bound to its user, tool, arguments and server.
 */
export async function probeState(
  channel: BalancerChannel,
  tokens: Tokens,
  round: Replayable,
  counts: { crossUser: ProbeCounts; crossTool: ProbeCounts },
): Promise<void> {
  const asOtherUser = toolCall({
    tool: round.tool,
    token: tokens[otherUser(round.user)],
    clientName: 'fleet-probe',
    inputResponses: round.inputResponses,
    requestState: round.requestState,
  });
  await present(
    channel,
    asOtherUser,
    counts.crossUser,
    `${round.user}'s ${round.tool} state as ${otherUser(round.user)}`,
  );
  const asOtherTool = toolCall({
    tool: 'book_return',
    token: tokens[round.user],
    clientName: 'fleet-probe',
    inputResponses: round.inputResponses,
    requestState: round.requestState,
  });
  await present(channel, asOtherTool, counts.crossTool, `${round.tool} state on book_return`);
}

/** Sends a round that must be refused; counts what happened. */
export async function present(
  channel: BalancerChannel,
  call: ReturnType<typeof toolCall>,
  counts: ProbeCounts,
  what: string,
): Promise<{ replica: string | undefined; outcome: Outcome }> {
  counts.sent++;
  const reply = await channel.send(call);
  const outcome = outcomeOf(reply);
  if (unclearReason(reply) !== undefined) counts.unclear++;
  else if (outcome.kind === 'rpc_error' && outcome.code === -32602) counts.refused++;
  else counts.accepted.push(`${what}: ${outcome.kind}`);
  return { replica: reply.replica, outcome };
}
