/**
 * The `_meta` key under which a Parley server names a question on the 2025 eras, where
 * `elicitation/create` has no key of its own (on 2026-07-28 the `inputRequests` key names it). Hosts
 * use it to match scripted answers and to show which question they are on.
 */
export const PARLEY_KEY_META = 'dev.parley/key';
