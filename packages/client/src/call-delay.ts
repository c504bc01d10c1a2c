import type { CallState } from './call-state.js';

/** Waits `ms`, or rejects with the call's abort reason as soon as the call is cancelled. */
export function callDelay(call: CallState, ms: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(call.signal.reason);
    };
    const timer = setTimeout(() => {
      call.signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    call.signal.addEventListener('abort', onAbort, { once: true });
  });
}
