import { hkdfSync } from 'node:crypto';
import {
  type AeadBackend,
  KeyRing,
  type KeyRingOptions,
  type SealSecret,
  webCryptoAead,
} from '@parley/core/seal';

const TOKEN = /^[A-Za-z0-9_-]+$/;
const VERSION = /^[a-z][a-z0-9]{0,15}$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A replica id on a fleet bus: its name, a dash and a random part (letters, digits, `_`, `-`). */
export const REPLICA_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** A message id on a fleet bus. */
export const MESSAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * WebCrypto's AES-256-GCM with Node's base64url: a message of 16 MB is sealed and opened in tens
 * of milliseconds, off the event loop, instead of seconds of the portable codec blocking it. Only
 * the canonical spelling of a token decodes.
 */
const backend: AeadBackend = {
  ...webCryptoAead,
  encodeToken: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url'),
  decodeToken(text) {
    const bytes = Buffer.from(text, 'base64url');
    return bytes.toString('base64url') === text ? bytes : undefined;
  },
};

/** What every message on a bus says of itself in the clear, and seals as its associated data. */
export interface BusHeader {
  readonly t: string;
  readonly id: string;
  readonly from: string;
}

/** A message read from a bus, or why it was dropped (never its text: it is not ours to log). */
export type BusRead<M> = { readonly message: M } | { readonly dropped: string };

/** One bus's format: what sets its messages and keys apart from every other bus's. */
export interface BusFormat<M extends BusHeader> {
  /** What the bus is called in the reasons its messages are dropped, e.g. `gateway fleet bus`. */
  readonly name: string;
  /** The first field of every message, the format and its version (lowercase letters and digits), e.g. `pb1`. */
  readonly version: string;
  /** The HKDF salt of the bus's keys: a bus's keys are its own, never the state's or another bus's. */
  readonly salt: string;
  /** The first element of every message's associated data. */
  readonly label: string;
  /** The kinds of message on the bus (`t`). */
  readonly kinds: ReadonlySet<string>;
  /** Where the fleet sets its shared keys, named when a message comes sealed with a key this replica lacks. */
  readonly keysSetting: string;
  /** Checks what a message opened to (JSON, at most `maxChars`): anything that is not exactly one of the bus's messages is dropped, with why. */
  readonly read: (json: string, maxChars: number) => BusRead<M>;
}

/**
 * Seals the messages replicas of a fleet exchange over a shared bus (Redis pub/sub), with keys
 * derived from the key ring the fleet already shares for `requestState`: for each of its keys,
 * HKDF-SHA-256 with the bus's own salt, so the bus's keys are not the state's and a token of one
 * never opens as the other. The first key seals, every key opens (rotation as for sealed state:
 * add the new key second everywhere, then first, then drop the old one).
 *
 * A message travels as `<version>.<kind>.<id>.<from>.<token>`: its kind, id and sender in the clear
 * (so a replica drops what is not for it before it decrypts anything), and the whole message sealed
 * with AES-256-GCM (`KeyRing`), bound by its associated data to the bus, the channel it is
 * published on, and that kind, id and sender. A message copied to another channel or bus, given
 * another kind, id or sender, altered, or sealed without the fleet's keys does not open. Whether a
 * message that opens is a copy of one acted on already is the bus user's to check
 * (`SeenMessages`, or a count), and so is its deadline.
 */
export class BusSeal<M extends BusHeader> {
  readonly #ring: KeyRing;
  readonly #format: BusFormat<M>;

  private constructor(ring: KeyRing, format: BusFormat<M>) {
    this.#ring = ring;
    this.#format = format;
  }

  /** The seal of the bus `format` for a fleet whose replicas share `secrets` (the state key ring, sealing key first). */
  static async create<M extends BusHeader>(
    secrets: readonly SealSecret[],
    format: BusFormat<M>,
  ): Promise<BusSeal<M>> {
    if (!VERSION.test(format.version))
      throw new TypeError(
        `A bus format's version is 1 to 16 lowercase letters and digits (got ${format.version}).`,
      );
    return new BusSeal(await deriveKeyRing(secrets, format.salt, 'bus-key'), format);
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
    const token = await this.#ring.seal(encoder.encode(json), this.#associated(channel, header));
    const { version } = this.#format;
    return { text: `${version}.${header.t}.${header.id}.${header.from}.${token}`, chars: json.length };
  }

  /**
   * Opens a message read on `channel` and checks it (the format's `read`, at most `maxChars` of
   * JSON); anything else is dropped, with why (never what it said). Never throws.
   */
  async open(channel: string, text: string, maxChars: number): Promise<BusRead<M>> {
    // Base64url of at most 3 bytes of UTF-8 for each character of JSON, and the token's own bytes.
    const most = Math.ceil(((maxChars * 3 + 128) * 4) / 3) + 512;
    if (text.length > most)
      return { dropped: `a sealed message of ${text.length} characters (at most ${most})` };
    const header = this.#readHeader(text);
    if (header === undefined) return { dropped: `a message that is not sealed for the ${this.#format.name}` };
    const opened = await this.#ring.open(
      text.slice(text.lastIndexOf('.') + 1),
      this.#associated(channel, header),
    );
    if (!opened.ok)
      return {
        dropped:
          opened.reason === 'unknown-key'
            ? `a message sealed with a key this replica does not have (is ${this.#format.keysSetting} the same on every replica?)`
            : 'a message that does not open with the fleet keys (forged, altered, or meant for another replica)',
      };
    let json: string;
    try {
      json = decoder.decode(opened.plaintext);
    } catch {
      return { dropped: 'a message that is not UTF-8' };
    }
    let read: BusRead<M>;
    try {
      read = this.#format.read(json, maxChars);
    } catch {
      return { dropped: 'a message its reader could not check' };
    }
    if ('dropped' in read) return read;
    const { t, id, from } = read.message;
    if (t !== header.t || id !== header.id || from !== header.from)
      return { dropped: 'a message whose sealed kind, id or sender is not the one it shows' };
    return read;
  }

  #readHeader(text: string): BusHeader | undefined {
    const { version, kinds } = this.#format;
    const parts = text.slice(0, 300).split('.', 5);
    if (parts.length < 5 || parts[0] !== version) return undefined;
    const [, t, id, from] = parts as [string, string, string, string, string];
    const token = text.slice(version.length + t.length + id.length + from.length + 4);
    if (!kinds.has(t) || !MESSAGE_ID.test(id) || !REPLICA_ID.test(from) || !TOKEN.test(token))
      return undefined;
    return { t, id, from };
  }

  /** What a message is bound to: the bus, the channel it is published on, its kind, id and sender. */
  #associated(channel: string, header: BusHeader): Uint8Array {
    return encoder.encode(JSON.stringify([this.#format.label, channel, header.t, header.id, header.from]));
  }
}

/**
 * A key ring of keys of their own derived from the fleet's (`secrets`, checked as sealed state
 * checks them, with the same errors): for each, HKDF-SHA-256 with `salt` and `<use>:<key id>` as
 * info, under the same id, in the same order (so rotation works as it does for the state's).
 * `aead`: how it seals (default WebCrypto, off the event loop, for messages up to megabytes).
 */
export async function deriveKeyRing(
  secrets: readonly SealSecret[],
  salt: string,
  use: string,
  aead: KeyRingOptions['backend'] = backend,
): Promise<KeyRing> {
  await KeyRing.create(secrets);
  const derived = secrets.map(({ id, secret }) => ({
    id,
    secret: new Uint8Array(hkdfSync('sha256', bytesOf(secret), encoder.encode(salt), `${use}:${id}`, 32)),
  }));
  return KeyRing.create(derived, { backend: aead });
}

/** A key ring secret's bytes (checked already by `KeyRing.create`: base64 or base64url text, or bytes). */
function bytesOf(secret: Uint8Array | string): Uint8Array {
  if (typeof secret !== 'string') return secret;
  return Buffer.from(secret.trim().replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}
