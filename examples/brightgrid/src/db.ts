import { join } from 'node:path';
import Database from 'better-sqlite3';
import { COURIER_LINKS_SCHEMA, CourierLinks } from './courier-links.js';
import { DEMO_USERS } from './demo-users.js';
import { ORDERS_SCHEMA, Orders, seedOrders } from './orders.js';
import { hashPassword, UNKNOWN_USER_HASH, verifyPassword } from './passwords.js';
import { digest, newSecret } from './secrets.js';

// Records are type aliases of JSON values (not interfaces), so tools can pass them through ctx.once().

export const RETURN_REASONS = ['Broken', 'Wrong item', 'No longer needed'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export type User = {
  readonly name: string;
  readonly displayName: string;
  readonly email: string;
};

export type NewReturn = {
  readonly reason: ReturnReason;
  readonly email: string;
  readonly boxes: number;
  readonly pickupDate: string;
  readonly giftWrap: boolean;
};

export type ReturnRow = NewReturn & { readonly id: number; readonly user: string; readonly bookedAt: string };

export type Destination = {
  readonly code: string;
  readonly city: string;
  readonly fareEur: number;
};

export type FlightRow = {
  readonly id: number;
  readonly user: string;
  readonly destination: string;
  readonly city: string;
  readonly date: string;
  readonly fareEur: number;
  readonly bookedAt: string;
};

export type NewDeployment = {
  readonly service: string;
  readonly version: string;
  readonly environment: 'staging' | 'production';
  readonly notify: boolean;
  readonly window: string;
};

export type DeploymentRow = NewDeployment & {
  readonly id: number;
  readonly user: string;
  readonly requestedAt: string;
};

export type Product = {
  readonly sku: string;
  readonly name: string;
  readonly tags: string[];
};

export type Tag = {
  readonly slug: string;
  readonly title: string;
};

export type StoreLink = {
  readonly user: string;
  readonly client: string;
  readonly linkedAt: string;
};

export type WebSession = {
  readonly user: string;
  /** The session's anti-CSRF token, put in every form the signed-in person posts. */
  readonly csrf: string;
};

export interface StoreOptions {
  /** The folder of `brightgrid.sqlite`; `':memory:'` for a database that lives only in this process. */
  readonly dir: string;
  /** Clock, for tests. */
  readonly now?: () => Date;
  /** How long a browser sign-in lasts. Default 8 hours. */
  readonly sessionSeconds?: number;
}

const BOOKING_TABLES = ['returns', 'flights', 'deployments'] as const;
type BookingTable = (typeof BOOKING_TABLES)[number];

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY, display_name TEXT NOT NULL, email TEXT NOT NULL, password_hash TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS api_tokens (
    token_hash TEXT PRIMARY KEY, user TEXT NOT NULL REFERENCES users(name), created_at TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS web_sessions (
    id_hash TEXT PRIMARY KEY, user TEXT NOT NULL REFERENCES users(name), csrf TEXT NOT NULL,
    expires_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS returns (
    id INTEGER PRIMARY KEY, user TEXT NOT NULL REFERENCES users(name), reason TEXT NOT NULL,
    email TEXT NOT NULL, boxes INTEGER NOT NULL CHECK (boxes BETWEEN 1 AND 3), pickup_date TEXT NOT NULL,
    gift_wrap INTEGER NOT NULL, booked_at TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS destinations (code TEXT PRIMARY KEY, city TEXT NOT NULL, fare_eur INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS flights (
    id INTEGER PRIMARY KEY, user TEXT NOT NULL REFERENCES users(name),
    destination TEXT NOT NULL REFERENCES destinations(code), date TEXT NOT NULL, fare_eur INTEGER NOT NULL,
    booked_at TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS deployments (
    id INTEGER PRIMARY KEY, user TEXT NOT NULL REFERENCES users(name), service TEXT NOT NULL,
    version TEXT NOT NULL, environment TEXT NOT NULL CHECK (environment IN ('staging', 'production')),
    notify INTEGER NOT NULL, window_start TEXT NOT NULL, requested_at TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS products (sku TEXT PRIMARY KEY, name TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS tags (slug TEXT PRIMARY KEY, title TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS product_tags (
    sku TEXT NOT NULL REFERENCES products(sku), tag TEXT NOT NULL REFERENCES tags(slug),
    PRIMARY KEY (sku, tag));
  CREATE TABLE IF NOT EXISTS store_links (
    user TEXT PRIMARY KEY REFERENCES users(name), client TEXT NOT NULL, linked_at TEXT NOT NULL);
`;

/** How long an API token works (a stopped server revokes its own tokens sooner). */
export const TOKEN_HOURS = 24;

const DESTINATIONS: readonly Destination[] = [
  { code: 'LIS', city: 'Lisbon', fareEur: 129 },
  { code: 'OSL', city: 'Oslo', fareEur: 164 },
  { code: 'YUL', city: 'Montréal', fareEur: 512 },
  { code: 'KIX', city: 'Osaka', fareEur: 780 },
];

const PRODUCTS = [
  { sku: 'BG-100', name: 'Desk lamp', tags: ['bestseller'] },
  { sku: 'BG-200', name: 'Solar garden light', tags: ['eco'] },
  { sku: 'BG-300', name: 'Smart plug', tags: [] },
];

const TAGS: readonly Tag[] = [
  { slug: 'bestseller', title: 'Bestseller' },
  { slug: 'eco', title: 'Eco-friendly' },
  { slug: 'gift', title: 'Gift idea' },
  { slug: 'new', title: 'New arrival' },
  { slug: 'sale', title: 'On sale' },
];

/**
 * Brightgrid's data: an embedded SQLite database with the demo users, the catalogue, and everything
 * the tools book. Opening it creates and seeds what is missing, so several processes (the HTTP demo
 * and `parley call` over stdio) can share one folder.
 *
 * @example
 * const store = openStore({ dir: resolveDataDir() });
 * const row = store.addReturn('alice', { reason: 'Broken', email: 'a@b.example', boxes: 1, pickupDate: '2026-08-03', giftWrap: false });
 * store.returns('alice'); // [row]
 */
export class Store {
  readonly #db: Database.Database;
  readonly #now: () => Date;
  readonly #sessionSeconds: number;
  /** The store's orders (what `cancel_order` cancels). */
  readonly orders: Orders;
  /** Linked courier accounts (what `link_courier_account` records). */
  readonly couriers: CourierLinks;

  constructor(options: StoreOptions) {
    const file = options.dir === ':memory:' ? ':memory:' : join(options.dir, 'brightgrid.sqlite');
    this.#db = new Database(file);
    this.#now = options.now ?? (() => new Date());
    this.#sessionSeconds = options.sessionSeconds ?? 8 * 3600;
    // Replicas starting together on a fresh shared database: wait for each other's locks (set
    // before anything else), and create and seed in one IMMEDIATE transaction, which takes the
    // write lock up front (a deferred one that reads first cannot wait for it: SQLITE_BUSY).
    this.#db.pragma('busy_timeout = 5000');
    retryWhileBusy(() => this.#db.pragma('journal_mode = WAL'));
    this.#db.pragma('foreign_keys = ON');
    retryWhileBusy(() =>
      this.#db
        .transaction(() => {
          this.#db.exec(SCHEMA + ORDERS_SCHEMA + COURIER_LINKS_SCHEMA);
          this.#addIdempotencyKeys();
          this.#seed();
          seedOrders(this.#db);
        })
        .immediate(),
    );
    this.orders = new Orders(this.#db, this.#now);
    this.couriers = new CourierLinks(this.#db, this.#now);
  }

  /**
   * Bookings remember the idempotency key of the call that made them (`ctx.once` hands one to its
   * work), so a client that sends the same round twice books once. Databases made before this
   * column existed get it added.
   */
  #addIdempotencyKeys(): void {
    for (const table of BOOKING_TABLES) {
      const columns = this.#db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all();
      if (!columns.some((column) => column.name === 'idempotency_key')) {
        this.#db.exec(`ALTER TABLE ${table} ADD COLUMN idempotency_key TEXT`);
      }
      this.#db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${table}_once ON ${table} (idempotency_key)`);
    }
  }

  /** Runs `insert` unless a row with this idempotency key exists; returns the row's id either way. */
  #insertOnce(table: BookingTable, key: string | undefined, insert: () => number | bigint): number {
    const existing = () =>
      key === undefined
        ? undefined
        : this.#db
            .prepare<[string], { id: number }>(`SELECT id FROM ${table} WHERE idempotency_key = ?`)
            .get(key);
    const found = existing();
    if (found) return found.id;
    try {
      return Number(insert());
    } catch (error) {
      // Another replica booked the same call between the look-up and the insert.
      const raced = (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' ? existing() : undefined;
      if (raced) return raced.id;
      throw error;
    }
  }

  #seed(): void {
    const db = this.#db;
    const hasUser = db.prepare('SELECT 1 FROM users WHERE name = ?');
    const addUser = db.prepare(
      'INSERT OR IGNORE INTO users (name, display_name, email, password_hash) VALUES (?, ?, ?, ?)',
    );
    const addDestination = db.prepare('INSERT OR IGNORE INTO destinations VALUES (?, ?, ?)');
    const addTag = db.prepare('INSERT OR IGNORE INTO tags VALUES (?, ?)');
    const addProduct = db.prepare('INSERT OR IGNORE INTO products VALUES (?, ?)');
    const tagProduct = db.prepare('INSERT OR IGNORE INTO product_tags VALUES (?, ?)');
    for (const user of DEMO_USERS) {
      // Hashing is slow on purpose: only for users not seeded yet.
      if (hasUser.get(user.name)) continue;
      addUser.run(user.name, user.displayName, user.email, hashPassword(user.password));
    }
    for (const d of DESTINATIONS) addDestination.run(d.code, d.city, d.fareEur);
    for (const t of TAGS) addTag.run(t.slug, t.title);
    for (const p of PRODUCTS) {
      // Only a new product gets its starting tags, so tags people chose survive a restart.
      if (addProduct.run(p.sku, p.name).changes === 1) for (const tag of p.tags) tagProduct.run(p.sku, tag);
    }
  }

  #timestamp(): string {
    return this.#now().toISOString();
  }

  close(): void {
    this.#db.close();
  }

  user(name: string): User | undefined {
    return this.#db
      .prepare<[string], User>('SELECT name, display_name AS displayName, email FROM users WHERE name = ?')
      .get(name);
  }

  /** The user when `password` is theirs. Unknown names take as long as wrong passwords. */
  async checkPassword(name: string, password: string): Promise<User | undefined> {
    const row = this.#db
      .prepare<[string], { hash: string }>('SELECT password_hash AS hash FROM users WHERE name = ?')
      .get(name);
    const matches = await verifyPassword(password, row?.hash ?? UNKNOWN_USER_HASH);
    return row && matches ? this.user(name) : undefined;
  }

  /** Issues a new API bearer token for `user`; only its hash is stored. */
  issueToken(user: string): string {
    const token = newSecret();
    this.#db
      .prepare('INSERT INTO api_tokens (token_hash, user, created_at) VALUES (?, ?, ?)')
      .run(digest(token), user, this.#timestamp());
    return token;
  }

  /** The user of a token issued within the last {@link TOKEN_HOURS} hours and not revoked. */
  userForToken(token: string): string | undefined {
    const oldest = new Date(this.#now().getTime() - TOKEN_HOURS * 3600_000).toISOString();
    return this.#db
      .prepare<[string, string], { user: string }>(
        'SELECT user FROM api_tokens WHERE token_hash = ? AND created_at > ?',
      )
      .get(digest(token), oldest)?.user;
  }

  /** Ends tokens (a server revokes the ones it printed when it stops). */
  revokeTokens(tokens: readonly string[]): void {
    const remove = this.#db.prepare('DELETE FROM api_tokens WHERE token_hash = ?');
    this.#db.transaction(() => {
      for (const token of tokens) remove.run(digest(token));
    })();
  }

  /** Starts a browser session; the returned id goes in the session cookie. */
  startWebSession(user: string): { id: string } & WebSession {
    const id = newSecret();
    const csrf = newSecret();
    const expires = Math.floor(this.#now().getTime() / 1000) + this.#sessionSeconds;
    this.#db
      .prepare('INSERT INTO web_sessions (id_hash, user, csrf, expires_at) VALUES (?, ?, ?, ?)')
      .run(digest(id), user, csrf, expires);
    return { id, user, csrf };
  }

  webSession(id: string): WebSession | undefined {
    const now = Math.floor(this.#now().getTime() / 1000);
    return this.#db
      .prepare<[string, number], WebSession>(
        'SELECT user, csrf FROM web_sessions WHERE id_hash = ? AND expires_at > ?',
      )
      .get(digest(id), now);
  }

  endWebSession(id: string): void {
    this.#db.prepare('DELETE FROM web_sessions WHERE id_hash = ?').run(digest(id));
  }

  /** Books a return; with an idempotency key, the same key books once and returns that booking. */
  addReturn(user: string, booking: NewReturn, idempotencyKey?: string): ReturnRow {
    const id = this.#insertOnce(
      'returns',
      idempotencyKey,
      () =>
        this.#db
          .prepare(
            `INSERT INTO returns (user, reason, email, boxes, pickup_date, gift_wrap, booked_at, idempotency_key)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            user,
            booking.reason,
            booking.email,
            booking.boxes,
            booking.pickupDate,
            booking.giftWrap ? 1 : 0,
            this.#timestamp(),
            idempotencyKey ?? null,
          ).lastInsertRowid,
    );
    return this.#returnsWhere('id = ?', id)[0]!;
  }

  /** A user's returns, newest first. */
  returns(user: string): ReturnRow[] {
    return this.#returnsWhere('user = ?', user);
  }

  #returnsWhere(condition: string, value: string | number): ReturnRow[] {
    const rows = this.#db
      .prepare<[string | number], Omit<ReturnRow, 'giftWrap'> & { giftWrap: number }>(
        `SELECT id, user, reason, email, boxes, pickup_date AS pickupDate, gift_wrap AS giftWrap,
           booked_at AS bookedAt FROM returns WHERE ${condition} ORDER BY id DESC`,
      )
      .all(value);
    return rows.map((row) => ({ ...row, giftWrap: row.giftWrap === 1 }));
  }

  destinations(): Destination[] {
    return this.#db
      .prepare<[], Destination>('SELECT code, city, fare_eur AS fareEur FROM destinations ORDER BY fare_eur')
      .all();
  }

  /** Books a flight; with an idempotency key, the same key books once and returns that booking. */
  addFlight(user: string, destination: string, date: string, idempotencyKey?: string): FlightRow {
    const found = this.destinations().find((d) => d.code === destination);
    if (!found) throw new RangeError(`No destination ${destination}; pick one of store.destinations().`);
    const id = this.#insertOnce(
      'flights',
      idempotencyKey,
      () =>
        this.#db
          .prepare(
            'INSERT INTO flights (user, destination, date, fare_eur, booked_at, idempotency_key) VALUES (?, ?, ?, ?, ?, ?)',
          )
          .run(user, destination, date, found.fareEur, this.#timestamp(), idempotencyKey ?? null)
          .lastInsertRowid,
    );
    return this.#flightsWhere('f.id = ?', id)[0]!;
  }

  flights(user: string): FlightRow[] {
    return this.#flightsWhere('f.user = ?', user);
  }

  #flightsWhere(condition: string, value: string | number): FlightRow[] {
    return this.#db
      .prepare<[string | number], FlightRow>(
        `SELECT f.id, f.user, f.destination, d.city, f.date, f.fare_eur AS fareEur, f.booked_at AS bookedAt
           FROM flights f JOIN destinations d ON d.code = f.destination WHERE ${condition} ORDER BY f.id DESC`,
      )
      .all(value);
  }

  /** Schedules a deployment; with an idempotency key, the same key schedules once and returns it. */
  addDeployment(user: string, deployment: NewDeployment, idempotencyKey?: string): DeploymentRow {
    const id = this.#insertOnce(
      'deployments',
      idempotencyKey,
      () =>
        this.#db
          .prepare(
            `INSERT INTO deployments (user, service, version, environment, notify, window_start, requested_at, idempotency_key)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            user,
            deployment.service,
            deployment.version,
            deployment.environment,
            deployment.notify ? 1 : 0,
            deployment.window,
            this.#timestamp(),
            idempotencyKey ?? null,
          ).lastInsertRowid,
    );
    return this.#deploymentsWhere('id = ?', id)[0]!;
  }

  deployments(user: string): DeploymentRow[] {
    return this.#deploymentsWhere('user = ?', user);
  }

  #deploymentsWhere(condition: string, value: string | number): DeploymentRow[] {
    const rows = this.#db
      .prepare<[string | number], Omit<DeploymentRow, 'notify'> & { notify: number }>(
        `SELECT id, user, service, version, environment, notify, window_start AS window,
           requested_at AS requestedAt FROM deployments WHERE ${condition} ORDER BY id DESC`,
      )
      .all(value);
    return rows.map((row) => ({ ...row, notify: row.notify === 1 }));
  }

  tags(): Tag[] {
    return this.#db.prepare<[], Tag>('SELECT slug, title FROM tags ORDER BY title').all();
  }

  product(sku: string): Product | undefined {
    const row = this.#db
      .prepare<[string], { sku: string; name: string }>('SELECT sku, name FROM products WHERE sku = ?')
      .get(sku);
    if (!row) return undefined;
    const tags = this.#db
      .prepare<[string], { tag: string }>('SELECT tag FROM product_tags WHERE sku = ? ORDER BY tag')
      .all(sku)
      .map((t) => t.tag);
    return { ...row, tags };
  }

  products(): Product[] {
    return this.#db
      .prepare<[], { sku: string }>('SELECT sku FROM products ORDER BY sku')
      .all()
      .map(({ sku }) => this.product(sku)!);
  }

  /** Replaces a product's tags. */
  setProductTags(sku: string, tags: readonly string[]): Product {
    if (!this.product(sku)) throw new RangeError(`No product ${sku}; pick one of store.products().`);
    const remove = this.#db.prepare('DELETE FROM product_tags WHERE sku = ?');
    const add = this.#db.prepare('INSERT INTO product_tags (sku, tag) VALUES (?, ?)');
    this.#db.transaction(() => {
      remove.run(sku);
      for (const tag of tags) add.run(sku, tag);
    })();
    return this.product(sku)!;
  }

  /** Records that `user` connected their store account for `client` (replacing an earlier link). */
  linkStoreAccount(user: string, client: string): StoreLink {
    const linkedAt = this.#timestamp();
    this.#db
      .prepare('INSERT OR REPLACE INTO store_links (user, client, linked_at) VALUES (?, ?, ?)')
      .run(user, client, linkedAt);
    return { user, client, linkedAt };
  }

  storeLink(user: string): StoreLink | undefined {
    return this.#db
      .prepare<[string], StoreLink>(
        'SELECT user, client, linked_at AS linkedAt FROM store_links WHERE user = ?',
      )
      .get(user);
  }
}

/** Runs `work`, again after a short pause while SQLite says another connection holds the lock. */
function retryWhileBusy<T>(work: () => T, attempts = 20): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return work();
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (!code.startsWith('SQLITE_BUSY') || attempt >= attempts) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50 * attempt);
    }
  }
}

/** Opens (creating and seeding when needed) Brightgrid's database. */
export function openStore(options: StoreOptions): Store {
  return new Store(options);
}
