import { parseArgs } from 'node:util';

/** What to scaffold. */
export interface ScaffoldOptions {
  /** The folder to create, as the user typed it. */
  readonly directory: string;
  /** How hosts reach the server: a child process over stdio, or one HTTP endpoint. */
  readonly transport: 'stdio' | 'http';
  /** HTTP only: the endpoint is an OAuth 2.1 protected resource. */
  readonly oauth: boolean;
}

/** The command's usage, as `--help` prints it. */
export const USAGE = `Usage: npm create parley@latest <directory> [-- --transport http|stdio] [--oauth]

  <directory>          the folder to create (its name becomes the package name)
  --transport http     one HTTP endpoint, http://127.0.0.1:3000/mcp, for both protocol eras (default)
  --transport stdio    a server a host starts as a child process, talking over stdin and stdout
  --oauth              (HTTP) an OAuth 2.1 protected resource: tokens from your authorization server
  -h, --help           print this
`;

/** What the command line asks for: options to scaffold with, the help text, or a mistake to explain. */
export type Parsed =
  | { readonly kind: 'scaffold'; readonly options: ScaffoldOptions }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/** Reads the command line (the arguments after `create-parley`). */
export function parseOptions(args: readonly string[]): Parsed {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    return { kind: 'error', message: `${(error as Error).message}. Run with --help to see the options.` };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  const [directory, ...extra] = positionals;
  if (directory === undefined) {
    return { kind: 'error', message: 'Name the folder to create: npm create parley@latest my-server' };
  }
  if (extra.length > 0) {
    return { kind: 'error', message: `One folder at a time: got "${positionals.join('", "')}".` };
  }
  const transport = values.transport ?? 'http';
  if (transport !== 'http' && transport !== 'stdio') {
    return { kind: 'error', message: `--transport is http or stdio, not "${transport}".` };
  }
  const oauth = values.oauth ?? false;
  if (oauth && transport === 'stdio') {
    return {
      kind: 'error',
      message:
        'OAuth protects an HTTP endpoint, and a stdio server has none: use --transport http, or drop --oauth.',
    };
  }
  return { kind: 'scaffold', options: { directory, transport, oauth } };
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      transport: { type: 'string' },
      oauth: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
