import type { Readable, Writable } from 'node:stream';

/** The process around a command: its streams and environment (tests pass their own). */
export interface CliIO {
  readonly stdin: Readable & { isTTY?: boolean };
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
}

/**
 * One `parley` subcommand. To add one (e.g. `parley lab`), write `src/commands/<name>.ts` exporting
 * a `Command` and list it in `src/commands/table.ts`; help and dispatch come from the table.
 */
export interface Command {
  /** What the person types after `parley`. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The full help text shown by `parley help <name>` and `parley <name> --help`. */
  readonly usage: string;
  /** Runs the command and resolves with the process exit code (see `exit-codes.ts`). */
  run(args: readonly string[], io: CliIO): Promise<number>;
}
