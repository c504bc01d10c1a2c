import type Database from 'better-sqlite3';

/** A linked courier account: when, and how long its key is; never the key. */
export type CourierLink = {
  readonly user: string;
  readonly keyCharacters: number;
  readonly linkedAt: string;
};

export const COURIER_LINKS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS courier_links (
    user TEXT PRIMARY KEY REFERENCES users(name), key_digest TEXT NOT NULL, key_characters INTEGER NOT NULL,
    linked_at TEXT NOT NULL);
`;

/**
 * Which users linked their courier account. The demo keeps only a digest of the key (enough to
 * tell the same key again); a real store would hand the key to its secrets vault here.
 */
export class CourierLinks {
  readonly #db: Database.Database;
  readonly #now: () => Date;

  constructor(db: Database.Database, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  /** Records the link (replacing an earlier one). */
  link(user: string, keyDigest: string, keyCharacters: number): CourierLink {
    const linkedAt = this.#now().toISOString();
    this.#db
      .prepare(
        'INSERT OR REPLACE INTO courier_links (user, key_digest, key_characters, linked_at) VALUES (?, ?, ?, ?)',
      )
      .run(user, keyDigest, keyCharacters, linkedAt);
    return { user, keyCharacters, linkedAt };
  }

  get(user: string): CourierLink | undefined {
    return this.#db
      .prepare<[string], CourierLink>(
        'SELECT user, key_characters AS keyCharacters, linked_at AS linkedAt FROM courier_links WHERE user = ?',
      )
      .get(user);
  }

  /** The digest kept for the user's key (tests check it is not the key). */
  digestOf(user: string): string | undefined {
    return this.#db
      .prepare<[string], { digest: string }>('SELECT key_digest AS digest FROM courier_links WHERE user = ?')
      .get(user)?.digest;
  }
}
