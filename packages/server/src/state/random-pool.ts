import { randomFillSync } from 'node:crypto';

// CSPRNG bytes drawn 4 KiB at a time: the same randomness, one system call per few hundred draws
// instead of one per IV or call id (a measurable share of a round's CPU otherwise).
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** `length` fresh random bytes (never handed out twice). */
export function randomBytesPooled(length: number): Buffer {
  if (length > pool.length) return randomFillSync(Buffer.alloc(length));
  if (offset + length > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + length));
  offset += length;
  return bytes;
}
