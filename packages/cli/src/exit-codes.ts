import { ParleyError } from '@parley/client';

/**
 * What `parley` exits with:
 * - 0: the call succeeded;
 * - 1: the tool ran and reported an error (`isError: true`);
 * - 2: usage error (bad arguments, unreadable `--answers` file, a question with no answer and no
 *   terminal to ask in, an answer that does not fit the form);
 * - 3: the person declined or cancelled, and the call ended because of it: the client stopped it,
 *   or the server ended it with an error right after that answer. A tool that handles a decline
 *   itself and returns a normal result exits 0;
 * - 4: protocol or connection error (the server could not be reached, broke the protocol, answered
 *   with a JSON-RPC error, timed out, or kept asking past the round limit).
 */
export const EXIT = {
  ok: 0,
  toolError: 1,
  usage: 2,
  refused: 3,
  failure: 4,
} as const;

/** The exit codes (`EXIT`) as `parley --help` prints them. */
export const EXIT_CODES_HELP = `Exit codes:
  0  success
  1  the tool reported an error (isError)
  2  usage error: bad arguments, an unreadable --answers file, a question with no answer
     (no terminal and no --answers entry), or an answer that does not fit the form
  3  the person declined or cancelled, and the call ended because of it (a tool that
     handles the decline itself and returns a normal result exits 0)
  4  protocol or connection error: unreachable server, protocol violation, JSON-RPC
     error from the server, timeout, too many rounds, or a server past the
     client's limits (questions, fields, message or result size)`;

/** The exit code for an error thrown while running a call. */
export function exitCodeForError(error: unknown, endedOnRefusal: boolean): number {
  if (!(error instanceof ParleyError)) return EXIT.failure;
  switch (error.kind) {
    case 'unanswered':
    case 'invalid-answer':
      return EXIT.usage;
    case 'cancelled':
    case 'declined':
      return EXIT.refused;
    case 'server':
      return endedOnRefusal ? EXIT.refused : EXIT.failure;
    default:
      return EXIT.failure;
  }
}

/** The exit code for a finished call. */
export function exitCodeForResult(isError: boolean, endedOnRefusal: boolean): number {
  if (!isError) return EXIT.ok;
  return endedOnRefusal ? EXIT.refused : EXIT.toolError;
}

/** Thrown for bad command-line input; `main` prints the message and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
