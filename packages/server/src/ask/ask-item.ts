import { fingerprint } from './fingerprint.js';
import { kindOf } from './kind-table.js';
import type { AskItem } from './question-kind.js';

export type { AskItem, ItemResult } from './question-kind.js';

/**
 * An ask point: one place in the handler where it waits for the person (or the client). A single
 * `ctx.elicit` is a point of one item; `ctx.elicitAll` a batch of several asked in one round.
 */
export interface AskPoint {
  readonly fingerprint: number;
  readonly items: readonly AskItem[];
  readonly batch: boolean;
  /** A short description for errors ("form 'q2': Pickup date?"). */
  readonly label: string;
}

export function askPoint(items: readonly AskItem[], batch: boolean): AskPoint {
  const first = items[0]!;
  const label = batch
    ? `batch of ${items.map((item) => `'${item.key}'`).join(', ')}`
    : `${first.kind} '${first.key}'${first.message !== undefined ? `: ${first.message}` : ''}`;
  return {
    fingerprint: fingerprint(
      batch ? 'batch' : 'one',
      ...items.map((item) => kindOf(item).fingerprintText(item)),
    ),
    items,
    batch,
    label,
  };
}
