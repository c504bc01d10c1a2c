import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './exit-codes.js';

type Parsed<Options extends NonNullable<ParseArgsConfig['options']>> = ReturnType<
  typeof parseArgs<{ args: string[]; options: Options; allowPositionals: true; strict: true }>
>;

/** A command's flags and positionals, or `help: true` when the person asked for its help. */
export interface ParsedCommand<Options extends NonNullable<ParseArgsConfig['options']>> {
  readonly values: Parsed<Options>['values'];
  readonly positionals: string[];
  readonly help: boolean;
}

/**
 * Parses one command's arguments strictly: unknown flags and a wrong number of positionals are
 * usage errors that point at the command's help. A server command line must be one argument, so an
 * unquoted one shows up as extra positionals and gets its own hint.
 */
export function parseCommandArgs<const Options extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  args: readonly string[],
  options: Options,
  positionalNames: readonly string[],
): ParsedCommand<Options> {
  let parsed: Parsed<Options>;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; see parley help ${command}`);
  }
  const { positionals } = parsed;
  if ((parsed.values as { help?: boolean }).help) return { values: parsed.values, positionals, help: true };
  if (positionals.length < positionalNames.length) {
    const missing = positionalNames.slice(positionals.length).map((name) => `<${name}>`);
    throw new UsageError(`parley ${command} needs ${missing.join(' ')}; see parley help ${command}`);
  }
  if (positionals.length > positionalNames.length) {
    throw new UsageError(
      `parley ${command} takes ${positionalNames.map((name) => `<${name}>`).join(' ')} but got ${positionals.length} arguments; quote a server command that has spaces, like parley ${command} "node server.js" …`,
    );
  }
  return { values: parsed.values, positionals, help: false };
}
