import type { CliIO, Command } from './command.js';
import { commands as defaultCommands } from './commands/table.js';
import { EXIT, EXIT_CODES_HELP, UsageError } from './exit-codes.js';
import { say, terminalSafeStdout, writeText } from './print.js';
import { VERSION } from './version.js';

export { VERSION };

function overview(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return `parley ${VERSION}: call MCP servers and answer their questions in the terminal.

Usage: parley <command> [arguments]

Commands:
${commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}

Run parley help <command> for a command's options.

${EXIT_CODES_HELP}`;
}

/**
 * Runs `parley` with the given arguments and resolves with the exit code. Never throws: every
 * failure is printed on stderr and becomes an exit code.
 *
 * @example
 * process.exitCode = await main(['call', 'node server.js', 'book_table'], process);
 */
export async function main(
  argv: readonly string[],
  processIO: CliIO,
  commands: readonly Command[] = defaultCommands,
): Promise<number> {
  const io: CliIO = { ...processIO, stdout: terminalSafeStdout(processIO.stdout) };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    writeText(name === undefined ? io.stderr : io.stdout, overview(commands));
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-V') {
    writeText(io.stdout, VERSION);
    return EXIT.ok;
  }
  if (name === 'help') {
    const topic = rest[0] === undefined ? undefined : commands.find((command) => command.name === rest[0]);
    if (rest[0] !== undefined && topic === undefined) return unknown(rest[0], commands, io);
    writeText(io.stdout, topic === undefined ? overview(commands) : topic.usage);
    return EXIT.ok;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) return unknown(name, commands, io);
  try {
    return await command.run(rest, io);
  } catch (error) {
    say(io.stderr, `parley: ${(error as Error).message}`);
    return error instanceof UsageError ? EXIT.usage : EXIT.failure;
  }
}

function unknown(name: string, commands: readonly Command[], io: CliIO): number {
  say(
    io.stderr,
    `parley: unknown command "${name}"; the commands are ${commands.map((command) => command.name).join(', ')} (see parley help)`,
  );
  return EXIT.usage;
}
