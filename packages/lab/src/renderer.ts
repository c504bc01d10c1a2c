// @parley/lab/renderer: kept so existing imports go on working. The renderer lives in
// @parley/renderer now; import it from there.

/** @deprecated Import from `@parley/renderer`; this re-export stays for existing code. */
export * from '@parley/renderer';
