// The `parley` command as a library: `main` runs it, and `Command` is what a new subcommand
// (`parley lab`, `parley demo`) implements before it is listed in `commands/table.ts`.

export type { CliIO, Command } from './command.js';
export { commands } from './commands/table.js';
export {
  CONNECTION_FLAGS,
  CONNECTION_FLAGS_HELP,
  type ConnectionSettings,
  readConnectionSettings,
} from './connection-options.js';
export { EXIT, EXIT_CODES_HELP, UsageError } from './exit-codes.js';
export { main, VERSION } from './main.js';
export { type Session, withSession } from './session.js';
