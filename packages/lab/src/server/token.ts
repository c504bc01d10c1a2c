import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh access token for one lab: 32 random bytes, base64url (URL-safe, 43 characters). */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares a presented token with the lab's in constant time. */
export function isLabToken(presented: string | null | undefined, token: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token from an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header ?? '');
  return match?.[1];
}
