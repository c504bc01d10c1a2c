// The page's side of the exercise sandbox: one fresh frame (of no origin, with no network) per run,
// removed when it answers or when it has run too long. Only its own frame's messages count.

import { frameDocument } from './frame.js';
import type { Outcome } from './program.js';

/** How long an exercise's code may run before it is stopped. */
export const RUN_LIMIT_MS = 5_000;

let runtime: Promise<string> | undefined;

/** The sandbox's runtime script, loaded the first time code runs (it is large). */
function runtimeText(): Promise<string> {
  runtime ??= import('virtual:parley-sandbox-runtime').then((module) => module.default);
  return runtime;
}

/**
 * A message from `frame`'s sandbox, read as an outcome: it must come from that frame's window, with
 * the origin a sandboxed frame has (`null`), and be shaped like one; anything else is not its answer.
 */
export function outcomeFrom(event: MessageEvent, frame: Window | null): Outcome | undefined {
  if (frame === null || event.source !== frame || event.origin !== 'null') return undefined;
  const data = event.data as { ok?: unknown; value?: unknown; error?: unknown } | null;
  if (data?.ok === true && typeof data.value === 'string') return { ok: true, value: data.value };
  if (data?.ok === false && typeof data.error === 'string') return { ok: false, error: data.error };
  return { ok: false, error: 'The sandbox answered with something that is not an outcome.' };
}

/** Runs `code` in a new sandbox frame and gives the value of its last line. */
export async function runInSandbox(code: string): Promise<Outcome> {
  const source = await runtimeText();
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.style.display = 'none';
    frame.className = 'exercise-sandbox';
    const finish = (outcome: Outcome) => {
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      frame.remove();
      resolve(outcome);
    };
    const onMessage = (event: MessageEvent) => {
      const outcome = outcomeFrom(event, frame.contentWindow);
      if (outcome) finish(outcome);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          error: `It ran for more than ${RUN_LIMIT_MS / 1000} seconds: is there a loop that never ends?`,
        }),
      RUN_LIMIT_MS,
    );
    addEventListener('message', onMessage);
    frame.addEventListener(
      'load',
      // A frame of no origin is addressed as '*': what it is sent (the runtime, the code) is no secret.
      () => frame.contentWindow?.postMessage({ runtime: source, code }, '*'),
      { once: true },
    );
    frame.srcdoc = frameDocument();
    document.body.append(frame);
  });
}
