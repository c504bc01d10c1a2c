import { createHash, randomBytes } from 'node:crypto';

/** A fresh unguessable token (256 bits, base64url). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its SHA-256, so a copy of the database cannot be replayed. */
export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
