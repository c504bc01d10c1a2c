import type { ReplyEvent } from './driver.js';
import { sealingKeyOf } from './keys.js';
import { outcomeOf } from './mcp/outcome.js';

/** How rounds used the key ring while it rotated. */
export interface KeyUse {
  /** Rounds whose state opened, by `sealing key -> key of the replica's ring that sealed new states`. */
  readonly opened: Map<string, number>;
  /** Rounds whose state was refused (-32602), by the same pair. */
  readonly refused: Map<string, number>;
}

/**
 * Counts, for every round that presented a state, which key had sealed it and which key the
 * replica that served it seals with: during a rotation, states sealed with the old key must keep
 * opening on replicas that already seal with the new one (and the other way round).
 */
export class KeyUseCounter {
  readonly use: KeyUse = { opened: new Map(), refused: new Map() };
  readonly #sealingKeyOfReplica: (address: string) => string | undefined;

  constructor(sealingKeyOfReplica: (address: string) => string | undefined) {
    this.#sealingKeyOfReplica = sealingKeyOfReplica;
  }

  record(event: ReplyEvent): void {
    if (!event.step?.round || event.unclear !== undefined || event.reply.replica === undefined) return;
    const presented = presentedState(event.step.call.body);
    if (presented === undefined) return;
    const pair = `${sealingKeyOf(presented) ?? '?'} -> ${this.#sealingKeyOfReplica(event.reply.replica) ?? '?'}`;
    const outcome = outcomeOf(event.reply);
    const refused = outcome.kind === 'rpc_error' && outcome.code === -32602;
    const counts = refused ? this.use.refused : this.use.opened;
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
}

/** The requestState a tools/call body presents. */
export function presentedState(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  const state = (JSON.parse(body) as { params?: { requestState?: unknown } }).params?.requestState;
  return typeof state === 'string' ? state : undefined;
}
