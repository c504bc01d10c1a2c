import type { Packed } from '../src/pack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Every publishable package, packed by the global setup. */
    packs: Packed[];
  }
}
