import type { App } from '../app.js';
import { CallCancelledError, CallEndingError } from '../errors.js';

/**
 * The one error policy for every call: what a CallEndingError says reaches the caller (and the log
 * too when it is the author's mistake); anything else reaches the caller only as an internal error
 * with a reference, its details in the log.
 */
export function report(app: App, error: unknown, what: string): string {
  if (error instanceof CallEndingError) {
    if (error.authorBug) app.log('error', `${what}: ${error.message}`);
    // A cancellation is the client's choice (or its connection going), not a fault: info, with why.
    else if (error instanceof CallCancelledError)
      app.log('info', `${what} was cancelled while a question waited: ${error.reason}`);
    return error.message;
  }
  const reference = crypto.randomUUID().slice(0, 8);
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  app.log('error', `${what} failed (reference ${reference}): ${detail}`);
  return `${what} failed with an internal error (reference ${reference}); the server log has the details.`;
}
