/**
 * A 32-bit FNV-1a hash of what an ask point asked. It only has to notice a handler that asks
 * something else on replay than it asked before (states are sealed, so nobody can forge one to
 * collide), which is why a fast non-cryptographic hash is enough.
 */
export function fingerprint(...parts: readonly string[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      hash ^= part.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    hash ^= 0xff; // separator, so ('ab','c') and ('a','bc') differ
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
