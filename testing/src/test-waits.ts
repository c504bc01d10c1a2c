// How long tests wait. Generous on purpose: with two `npm test` runs side by side on 2 cores, what
// takes milliseconds alone has taken tens of seconds, and a wait that gives up sooner fails a test
// that was only slow. Each stays under the e2e tests' and hooks' 120 s, so something that never
// happens still fails with the wait's own message (the process's output, the screen, the log).

/**
 * How long a test waits for a process it started to say it is ready. A Node process that loads a
 * server has taken more than 30 s to print its first line under that load.
 */
export const PROCESS_START_TIMEOUT_MS = 100_000;

/**
 * How long a test waits for something the system under test does on its own after an event: a
 * sweep, a count reaching a value, a log line, a screen showing an answer. It is also the default
 * of `expect.poll` (vitest's own default, 1 s, is timing, not behaviour).
 */
export const SETTLE_TIMEOUT_MS = 30_000;
