import { CallCancelledError } from '../errors.js';

/** Waits `ms`, or rejects with the call's cancellation when `signal` aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new CallCancelledError(signal.reason));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new CallCancelledError(signal.reason));
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}
