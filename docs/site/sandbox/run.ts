// The page's side of the exercise sandbox: one fresh worker per run, ended when it answers or when
// it has run too long.

import type { Outcome } from './program.js';

/** How long an exercise's code may run before it is stopped. */
export const RUN_LIMIT_MS = 5_000;

/** Runs `code` in a new sandbox worker and gives the value of its last line. */
export function runInSandbox(code: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'exercise' });
    const finish = (outcome: Outcome) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          error: `It ran for more than ${RUN_LIMIT_MS / 1000} seconds: is there a loop that never ends?`,
        }),
      RUN_LIMIT_MS,
    );
    worker.addEventListener('message', (event: MessageEvent<Outcome>) => finish(event.data));
    worker.addEventListener('error', (event) =>
      finish({ ok: false, error: event.message || 'The sandbox failed to start.' }),
    );
    worker.postMessage({ code });
  });
}
