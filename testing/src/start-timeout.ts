/**
 * How long a test waits for a process it started to say it is ready. Generous on purpose: with two
 * `npm test` runs side by side on 2 cores, a Node process that loads a server has taken more than
 * 30 s to print its first line, and a wait that gives up sooner fails a test that was only slow.
 * It stays under the e2e hooks' 120 s, so a process that never starts still fails with its output.
 */
export const PROCESS_START_TIMEOUT_MS = 100_000;
