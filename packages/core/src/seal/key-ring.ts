import { type AeadBackend, webCryptoAead } from './aead.js';
import { fromBase64Url, toBase64Url } from './base64url.js';

/** One key of a ring: a short public id (it travels in every token) and a secret of at least 32 bytes. */
export interface SealSecret {
  readonly id: string;
  /** Raw bytes, or base64 / base64url text. */
  readonly secret: Uint8Array | string;
}

/** Why a token did not open. Log it; never send it to the party that presented the token. */
export type OpenFailure = 'malformed' | 'unknown-key' | 'unauthentic';

/** What `KeyRing.open` gives back: the plaintext and the id of the key that opened it, or why it did not open. */
export type OpenResult =
  | { readonly ok: true; readonly plaintext: Uint8Array; readonly keyId: string }
  | { readonly ok: false; readonly reason: OpenFailure };

/** How a `KeyRing` seals: by default with WebCrypto's AES-256-GCM. */
export interface KeyRingOptions {
  /** The AES-256-GCM implementation; WebCrypto by default. */
  readonly backend?: AeadBackend;
}

const TOKEN_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MIN_SECRET_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9._-]{1,32}$/;
const encoder = new TextEncoder();
const HKDF_SALT = encoder.encode('parley/seal/v1');

interface RingKey {
  readonly id: string;
  readonly idBytes: Uint8Array;
  readonly key: unknown;
}

/**
 * Seals bytes with AES-256-GCM under a ring of keys: the first key seals, every key opens, and the
 * key id travels in the token, so keys rotate without breaking tokens already handed out. Each
 * key's AES key is derived from its secret with HKDF-SHA-256 once, when the ring is created.
 *
 * Tokens are unpadded base64url text: `version | id length | id | IV | ciphertext+tag`. The
 * associated data (`aad`) is not in the token: the opener must present the same bytes, which is how
 * a token is bound to the request it belongs to.
 *
 * @example
 * const newSecret = crypto.getRandomValues(new Uint8Array(32));
 * const oldSecret = process.env.OLD_STATE_KEY!; // base64 text works too
 * const ring = await KeyRing.create([{ id: 'k2', secret: newSecret }, { id: 'k1', secret: oldSecret }]);
 * const aad = new TextEncoder().encode('call 42'); // what the token is bound to
 * const token = await ring.seal(new TextEncoder().encode('hello'), aad);
 * const opened = await ring.open(token, aad); // { ok: true, plaintext, keyId: 'k2' }
 */
export class KeyRing {
  readonly #keys: readonly RingKey[];
  readonly #backend: AeadBackend;
  /** True when the ring holds a single random key made for this process only. */
  readonly ephemeral: boolean;

  private constructor(keys: RingKey[], backend: AeadBackend, ephemeral: boolean) {
    this.#keys = keys;
    this.#backend = backend;
    this.ephemeral = ephemeral;
  }

  /** Builds a ring; the first secret seals. Throws a `TypeError` naming the fix for a bad secret or id. */
  static async create(secrets: readonly SealSecret[], options: KeyRingOptions = {}): Promise<KeyRing> {
    if (secrets.length === 0) {
      throw new TypeError(
        'A key ring needs at least one key; make one with `openssl rand -base64 32`, or use KeyRing.ephemeral() for a single process.',
      );
    }
    const backend = options.backend ?? webCryptoAead;
    const seen = new Set<string>();
    const keys: RingKey[] = [];
    for (const { id, secret } of secrets) {
      if (!KEY_ID.test(id)) {
        throw new TypeError(`Key id ${JSON.stringify(id)} is not valid: use 1 to 32 of A-Z a-z 0-9 . _ -`);
      }
      if (seen.has(id))
        throw new TypeError(`Key id ${JSON.stringify(id)} appears twice in the ring; ids must be unique.`);
      seen.add(id);
      const bytes = typeof secret === 'string' ? decodeSecretText(secret) : secret;
      if (!bytes || bytes.length < MIN_SECRET_BYTES) {
        throw new TypeError(
          `Key ${JSON.stringify(id)} has a secret shorter than ${MIN_SECRET_BYTES} bytes (or not base64); ` +
            'use 32 random bytes, e.g. `openssl rand -base64 32`.',
        );
      }
      keys.push({
        id,
        idBytes: encoder.encode(id),
        key: await backend.importKey(await deriveKey(bytes, id)),
      });
    }
    return new KeyRing(keys, backend, false);
  }

  /** A ring of one random key that lives only as long as this process. */
  static async ephemeral(options: KeyRingOptions = {}): Promise<KeyRing> {
    const secret = crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES));
    const ring = await KeyRing.create([{ id: 'ephemeral', secret }], options);
    return new KeyRing([...ring.#keys], ring.#backend, true);
  }

  /**
   * Parses a ring from configuration text: comma-separated `id:secret` pairs, the sealing key
   * first (e.g. the value of `PARLEY_STATE_KEYS`).
   */
  static parse(config: string): SealSecret[] {
    return config
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0)
      .map((part) => {
        const colon = part.indexOf(':');
        if (colon <= 0)
          throw new TypeError(
            'Each key must be written `id:base64secret` (comma-separated, sealing key first).',
          );
        return { id: part.slice(0, colon), secret: part.slice(colon + 1) };
      });
  }

  /** The key ids, sealing key first. */
  get ids(): string[] {
    return this.#keys.map((key) => key.id);
  }

  /** Seals `plaintext`, binding it to `aad`. */
  async seal(plaintext: Uint8Array, aad: Uint8Array): Promise<string> {
    const sealing = this.#keys[0]!;
    const iv = this.#backend.randomIv();
    const sealed = await this.#backend.encrypt(sealing.key, iv, plaintext, aad);
    const token = new Uint8Array(2 + sealing.idBytes.length + IV_BYTES + sealed.length);
    token[0] = TOKEN_VERSION;
    token[1] = sealing.idBytes.length;
    token.set(sealing.idBytes, 2);
    token.set(iv, 2 + sealing.idBytes.length);
    token.set(sealed, 2 + sealing.idBytes.length + IV_BYTES);
    return this.#backend.encodeToken ? this.#backend.encodeToken(token) : toBase64Url(token);
  }

  /** Opens a token sealed by any key of this ring with the same `aad`. Never throws. */
  async open(token: string, aad: Uint8Array): Promise<OpenResult> {
    if (typeof token !== 'string') return { ok: false, reason: 'malformed' };
    const bytes = this.#backend.decodeToken ? this.#backend.decodeToken(token) : fromBase64Url(token);
    if (!bytes || bytes.length < 2 || bytes[0] !== TOKEN_VERSION) return { ok: false, reason: 'malformed' };
    const idLength = bytes[1]!;
    const ivStart = 2 + idLength;
    if (idLength === 0 || bytes.length < ivStart + IV_BYTES + TAG_BYTES)
      return { ok: false, reason: 'malformed' };
    const ringKey = this.#keyNamedIn(bytes, idLength);
    if (!ringKey) return { ok: false, reason: 'unknown-key' };
    const iv = bytes.subarray(ivStart, ivStart + IV_BYTES);
    try {
      const plaintext = await this.#backend.decrypt(ringKey.key, iv, bytes.subarray(ivStart + IV_BYTES), aad);
      return plaintext ? { ok: true, plaintext, keyId: ringKey.id } : { ok: false, reason: 'unauthentic' };
    } catch {
      return { ok: false, reason: 'unauthentic' };
    }
  }

  /**
   * The key whose id is the `idLength` bytes after a token's header, compared byte by byte: a
   * ring holds a few keys, and this spares decoding the id into a string on every open.
   */
  #keyNamedIn(bytes: Uint8Array, idLength: number): RingKey | undefined {
    for (const key of this.#keys) {
      const id = key.idBytes;
      if (id.length !== idLength) continue;
      let i = 0;
      while (i < idLength && bytes[2 + i] === id[i]) i++;
      if (i === idLength) return key;
    }
    return undefined;
  }
}

async function deriveKey(secret: Uint8Array, id: string): Promise<Uint8Array> {
  const base = await crypto.subtle.importKey('raw', secret as BufferSource, 'HKDF', false, ['deriveBits']);
  const info = encoder.encode(`aes-256-gcm:${id}`);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info },
    base,
    256,
  );
  return new Uint8Array(bits);
}

function decodeSecretText(text: string): Uint8Array | undefined {
  const urlSafe = text.trim().replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  try {
    return fromBase64Url(urlSafe);
  } catch {
    return undefined;
  }
}
