import type Database from 'better-sqlite3';

/** One order of the store (a JSON value, so tools can pass it through ctx.once()). */
export type OrderRow = {
  readonly id: number;
  readonly user: string;
  readonly product: string;
  readonly totalEur: number;
  readonly status: 'open' | 'cancelled';
  readonly placedAt: string;
  readonly cancelledAt: string | null;
};

export const ORDERS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS orders (
    id INTEGER PRIMARY KEY, user TEXT NOT NULL REFERENCES users(name), product TEXT NOT NULL,
    total_eur INTEGER NOT NULL, status TEXT NOT NULL CHECK (status IN ('open', 'cancelled')),
    placed_at TEXT NOT NULL, cancelled_at TEXT, cancel_key TEXT UNIQUE);
`;

/** The demo's open orders, so `cancel_order` has something to cancel. */
const DEMO_ORDERS = [
  { id: 1001, user: 'alice', product: 'Desk lamp', totalEur: 39, placedAt: '2026-11-20T10:00:00.000Z' },
  {
    id: 1002,
    user: 'alice',
    product: 'Solar garden light',
    totalEur: 24,
    placedAt: '2026-11-24T16:30:00.000Z',
  },
  { id: 2001, user: 'bob', product: 'Smart plug', totalEur: 19, placedAt: '2026-11-22T09:15:00.000Z' },
] as const;

/** Adds the demo orders that are missing (a cancelled one stays cancelled across restarts). */
export function seedOrders(db: Database.Database): void {
  const add = db.prepare(
    "INSERT OR IGNORE INTO orders (id, user, product, total_eur, status, placed_at) VALUES (?, ?, ?, ?, 'open', ?)",
  );
  for (const order of DEMO_ORDERS)
    add.run(order.id, order.user, order.product, order.totalEur, order.placedAt);
}

/** The store's orders: each user sees and cancels only their own. */
export class Orders {
  readonly #db: Database.Database;
  readonly #now: () => Date;

  constructor(db: Database.Database, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  /** A user's orders, newest first. */
  list(user: string): OrderRow[] {
    return this.#where('user = ?', user);
  }

  /** One of the user's orders; `undefined` for another user's or none. */
  get(user: string, id: number): OrderRow | undefined {
    return this.#where('user = ? AND id = ?', user, id)[0];
  }

  /**
   * Cancels an open order. The same idempotency key cancels once (a round sent twice); an order
   * already cancelled stays as it was.
   */
  cancel(user: string, id: number, idempotencyKey: string): OrderRow {
    this.#db
      .prepare(
        "UPDATE orders SET status = 'cancelled', cancelled_at = ?, cancel_key = ? WHERE user = ? AND id = ? AND status = 'open'",
      )
      .run(this.#now().toISOString(), idempotencyKey, user, id);
    const order = this.get(user, id);
    if (!order) throw new RangeError(`No order #${id} for ${user}.`);
    return order;
  }

  #where(condition: string, ...values: (string | number)[]): OrderRow[] {
    return this.#db
      .prepare<(string | number)[], OrderRow>(
        `SELECT id, user, product, total_eur AS totalEur, status, placed_at AS placedAt,
           cancelled_at AS cancelledAt FROM orders WHERE ${condition} ORDER BY id DESC`,
      )
      .all(...values);
  }
}
