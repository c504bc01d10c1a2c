import { describeCall, ParleyError } from './errors.js';
import type { CallInfo } from './types.js';

/** How a host call ended: with the host's value, or because the question ran out of time. */
export type HostOutcome<T> = { readonly kind: 'value'; readonly value: T } | { readonly kind: 'timeout' };

/**
 * Runs one host (UI) call with its own abort signal. The call ends when the host answers, when the
 * question times out (`timeout`), or when `outer` aborts (rejects with the outer reason) — even if
 * the host ignores its signal, so the client never hangs on a host. A host that throws something
 * other than a `ParleyError` fails with kind `host`.
 */
export async function callHost<T>(
  outer: AbortSignal,
  timeoutMs: number,
  run: (signal: AbortSignal) => Promise<T>,
  where?: { readonly server: string; readonly call: CallInfo },
): Promise<HostOutcome<T>> {
  const timeout = new AbortController();
  const signal = AbortSignal.any([outer, timeout.signal]);
  const timer = setTimeout(() => timeout.abort(new Error('The question timed out')), timeoutMs);
  let stop!: (outcome: HostOutcome<T> | Error) => void;
  const stopped = new Promise<HostOutcome<T> | Error>((resolve) => {
    stop = resolve;
  });
  const onAbort = () => stop(outer.aborted ? toError(outer.reason) : { kind: 'timeout' });
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    if (signal.aborted) onAbort();
    const outcome = await Promise.race([
      Promise.resolve()
        .then(() => run(signal))
        .then(
          (value): HostOutcome<T> => ({ kind: 'value', value }),
          (error: unknown) => {
            if (error instanceof ParleyError || signal.aborted) throw error;
            const message = error instanceof Error ? error.message : String(error);
            const question =
              where === undefined
                ? 'a question'
                : `a question from ${where.server} during ${describeCall(where.call)}`;
            throw new ParleyError('host', `The host failed while showing ${question}: ${message}`, {
              cause: error,
              ...(where !== undefined && { server: where.server, call: where.call }),
            });
          },
        ),
      stopped,
    ]);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

function toError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
