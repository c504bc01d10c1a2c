import { createHash } from 'node:crypto';
import type { KeyRing, SealSecret } from '@parley/core/seal';
import { deriveKeyRing, REPLICA_ID } from '../fleet-bus/bus-seal.js';
import { nodeAead } from '../state/node-aead.js';
import type { SessionRecord } from './session-router.js';

const VERSION = 'sr1';
const SALT = 'parley/server/session-records/v1';
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
/** The largest sealed record read back, in characters (a client's capabilities are in it). */
const MAX_SEALED_CHARS = 4 * 1024 * 1024;

/**
 * The session records a fleet keeps in Redis, sealed: each is AES-256-GCM with keys derived by
 * HKDF from the fleet's state keys (a salt of their own), bound to the Redis key it is stored
 * under, and that key names the session by a SHA-256 of its id, never by the id itself. So whoever
 * reads Redis learns neither session ids (an anonymous session's only credential) nor who holds
 * which session (principal, capabilities); and a record written without the keys, or copied from
 * another session's key, does not open: it cannot send a session's requests (and their
 * credentials) to a replica of the writer's choosing. A record that does not open counts as no
 * record (the client is told the session is not found, and starts a new one).
 */
export class SealedRecords {
  readonly #ring: KeyRing;
  readonly #prefix: string;

  private constructor(ring: KeyRing, prefix: string) {
    this.#ring = ring;
    this.#prefix = prefix;
  }

  static async create(secrets: readonly SealSecret[], prefix: string): Promise<SealedRecords> {
    // node:crypto: a record is small, and sealed at once, before the session's next request can come.
    return new SealedRecords(await deriveKeyRing(secrets, SALT, 'record-key', nodeAead), prefix);
  }

  /** The Redis key of a session's record. */
  keyOf(sessionId: string): string {
    return `${this.#prefix}s:${createHash('sha256').update(sessionId).digest('base64url')}`;
  }

  /** A record, sealed for its key. */
  async seal(record: SessionRecord): Promise<string> {
    const token = await this.#ring.seal(encoder.encode(JSON.stringify(record)), this.#associated(record.id));
    return `${VERSION}.${token}`;
  }

  /** The record of `sessionId` read from Redis, or why it is not one (never what it said). */
  async open(sessionId: string, raw: string): Promise<SessionRecord | { readonly dropped: string }> {
    if (raw.length > MAX_SEALED_CHARS || !raw.startsWith(`${VERSION}.`))
      return { dropped: 'a session record that is not sealed' };
    const opened = await this.#ring.open(raw.slice(VERSION.length + 1), this.#associated(sessionId));
    if (!opened.ok)
      return {
        dropped:
          opened.reason === 'unknown-key'
            ? 'a session record sealed with a key this replica does not have (are stateKeys / PARLEY_STATE_KEYS the same on every replica?)'
            : 'a session record that does not open with the fleet keys (forged, altered, or copied from another session)',
      };
    try {
      const record = JSON.parse(decoder.decode(opened.plaintext)) as Partial<SessionRecord>;
      if (
        record.id === sessionId &&
        typeof record.owner === 'string' &&
        REPLICA_ID.test(record.owner) &&
        (record.principal === undefined || typeof record.principal === 'string')
      )
        return record as SessionRecord;
    } catch {
      // dropped below
    }
    return { dropped: 'a session record that opens but is not one' };
  }

  #associated(sessionId: string): Uint8Array {
    return encoder.encode(JSON.stringify(['parley-session-record/1', this.keyOf(sessionId)]));
  }
}
