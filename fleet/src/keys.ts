import { randomBytes } from 'node:crypto';

/** One key of the shared ring. */
export interface RingKey {
  readonly id: string;
  /** 32 random bytes, base64. */
  readonly secret: string;
}

export function newKey(id: string): RingKey {
  return { id, secret: randomBytes(32).toString('base64') };
}

/** `PARLEY_STATE_KEYS` text for a ring, sealing key first. */
export function ringText(keys: readonly RingKey[]): string {
  return keys.map((key) => `${key.id}:${key.secret}`).join(',');
}

/**
 * The id of the key that sealed a Parley state token: tokens are base64url of
 * `version | id length | id | IV | ciphertext`, and the id is public on purpose (rotation).
 */
export function sealingKeyOf(token: string): string | undefined {
  const bytes = Buffer.from(token, 'base64url');
  const length = bytes[1];
  if (bytes[0] !== 1 || length === undefined || bytes.length < 2 + length) return undefined;
  return bytes.subarray(2, 2 + length).toString();
}
