import { hkdfSync } from 'node:crypto';
import { type AeadBackend, KeyRing, type SealSecret, webCryptoAead } from '@parley/core';
import { MESSAGE_ID, MESSAGE_KINDS, REPLICA_ID, type Received, readLiveMessage } from './live-wire.js';

/** The first field of every sealed message: the bus format's version. */
const VERSION = 'pb1';
/** Salt and info of the HKDF that derives the bus's keys from the fleet's state keys. */
const SALT = new TextEncoder().encode('parley/gateway/fleet-bus/v1');
const TOKEN = /^[A-Za-z0-9_-]+$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * WebCrypto's AES-256-GCM with Node's base64url: a result of 16 MB is sealed and opened in tens of
 * milliseconds instead of seconds of the portable codec blocking the event loop. Only the
 * canonical spelling of a token decodes.
 */
const backend: AeadBackend = {
  ...webCryptoAead,
  encodeToken: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url'),
  decodeToken(text) {
    const bytes = Buffer.from(text, 'base64url');
    return bytes.toString('base64url') === text ? bytes : undefined;
  },
};

/** What every message on the bus says of itself in the clear, and seals as its associated data. */
export interface BusHeader {
  readonly t: string;
  readonly id: string;
  readonly from: string;
}

/**
 * Seals the messages gateway replicas exchange over Redis, with keys derived from the key ring the
 * fleet already shares for `requestState` (`fleet.stateKeys`): for each of its keys, HKDF-SHA-256
 * with a salt of the bus's own, so the bus's keys are not the state's and a token of one never
 * opens as the other. The first key seals, every key opens (rotation as for sealed state: add the
 * new key second everywhere, then first, then drop the old one).
 *
 * A message travels as `pb1.<kind>.<id>.<from>.<token>`: its kind, id and sender in the clear (so
 * a replica drops what is not for it before it decrypts anything), and the whole message sealed
 * with AES-256-GCM (`KeyRing`), bound by its associated data to the channel it is published on and
 * to that kind, id and sender. A message copied to another channel, given another kind, id or
 * sender, altered, or sealed without the fleet's keys does not open.
 */
export class BusSeal {
  readonly #ring: KeyRing;

  private constructor(ring: KeyRing) {
    this.#ring = ring;
  }

  /** The seal for a fleet whose replicas share `secrets` (the state key ring, sealing key first). */
  static async create(secrets: readonly SealSecret[]): Promise<BusSeal> {
    // Checked as sealed state checks them, with the same errors (too short, bad id, twice, none).
    await KeyRing.create(secrets);
    const derived = secrets.map(({ id, secret }) => ({
      id,
      secret: new Uint8Array(hkdfSync('sha256', bytesOf(secret), SALT, `bus-key:${id}`, 32)),
    }));
    return new BusSeal(await KeyRing.create(derived, { backend }));
  }

  /**
   * A message (its kind, id and sender in `header`, the rest in `body`) sealed for `channel`, and
   * the length of its JSON (what `maxChars` limits when it is opened).
   */
  async seal(
    channel: string,
    header: BusHeader,
    body: Readonly<Record<string, unknown>>,
  ): Promise<{ readonly text: string; readonly chars: number }> {
    const json = JSON.stringify({ ...body, ...header });
    const token = await this.#ring.seal(encoder.encode(json), associated(channel, header));
    return { text: `${VERSION}.${header.t}.${header.id}.${header.from}.${token}`, chars: json.length };
  }

  /**
   * Opens a message read on `channel` and checks it (`readLiveMessage`, at most `maxChars` of
   * JSON); anything else is dropped, with why (never what it said). Never throws.
   */
  async open(channel: string, text: string, maxChars: number): Promise<Received> {
    // Base64url of at most 3 bytes of UTF-8 for each character of JSON, and the token's own bytes.
    const most = Math.ceil(((maxChars * 3 + 128) * 4) / 3) + 512;
    if (text.length > most)
      return { dropped: `a sealed message of ${text.length} characters (at most ${most})` };
    const header = readHeader(text);
    if (header === undefined) return { dropped: 'a message that is not sealed for the gateway fleet bus' };
    const opened = await this.#ring.open(text.slice(text.lastIndexOf('.') + 1), associated(channel, header));
    if (!opened.ok)
      return {
        dropped:
          opened.reason === 'unknown-key'
            ? 'a message sealed with a key this replica does not have (is fleet.stateKeys the same on every replica?)'
            : 'a message that does not open with the fleet keys (forged, altered, or meant for another replica)',
      };
    let json: string;
    try {
      json = decoder.decode(opened.plaintext);
    } catch {
      return { dropped: 'a message that is not UTF-8' };
    }
    const read = readLiveMessage(json, maxChars);
    if ('dropped' in read) return read;
    const { t, id, from } = read.message;
    if (t !== header.t || id !== header.id || from !== header.from)
      return { dropped: 'a message whose sealed kind, id or sender is not the one it shows' };
    return read;
  }
}

function readHeader(text: string): BusHeader | undefined {
  const parts = text.slice(0, 300).split('.', 5);
  if (parts.length < 5 || parts[0] !== VERSION) return undefined;
  const [, t, id, from] = parts as [string, string, string, string, string];
  const token = text.slice(VERSION.length + t.length + id.length + from.length + 4);
  if (!MESSAGE_KINDS.has(t) || !MESSAGE_ID.test(id) || !REPLICA_ID.test(from) || !TOKEN.test(token))
    return undefined;
  return { t, id, from };
}

/** What a message is bound to: the bus, the channel it is published on, its kind, id and sender. */
function associated(channel: string, header: BusHeader): Uint8Array {
  return encoder.encode(JSON.stringify(['parley-gateway-bus/1', channel, header.t, header.id, header.from]));
}

/** A key ring secret's bytes (checked already by `KeyRing.create`: base64 or base64url text, or bytes). */
function bytesOf(secret: Uint8Array | string): Uint8Array {
  if (typeof secret !== 'string') return secret;
  return Buffer.from(secret.trim().replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}
