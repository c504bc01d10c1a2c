/**
 * A 24-bit hash (FNV-1a, folded) of what an ask point asked. It only has to notice a handler that
 * asks something else on replay than it asked before (states are sealed, so nobody can forge one to
 * collide), which is why a fast non-cryptographic hash is enough, and 24 bits keep every journal
 * entry 3 bytes shorter on the wire (a 1 in 16 million chance to miss one divergence).
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
  return (hash ^ (hash >>> 24)) & 0xffffff;
}
