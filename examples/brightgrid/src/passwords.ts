import { randomBytes, type ScryptOptions, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

// scrypt cost parameters (N, r, p): N = 2^14 takes ~50 ms, which is right for a person signing in.
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url), with a fresh random salt. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, KEY_LENGTH, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/**
 * Whether `password` matches a hash made by {@link hashPassword}. A malformed hash never matches.
 * The hashing runs on libuv's thread pool, never on the event loop: a burst of sign-ins must not
 * stall every other request.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (expected.length !== KEY_LENGTH || !Object.values(cost).every(Number.isSafeInteger)) return false;
  try {
    const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), cost);
    return timingSafeEqual(actual, expected);
  } catch {
    return false; // cost parameters scrypt refuses
  }
}

function scryptAsync(password: string, salt: Buffer, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, cost, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A hash no password matches, checked for unknown users so a sign-in takes as long either way. */
export const UNKNOWN_USER_HASH = hashPassword(randomBytes(16).toString('base64url'));
