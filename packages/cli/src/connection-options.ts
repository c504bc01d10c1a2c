import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './exit-codes.js';
import { readServiceCredentials, type ServiceCredentials } from './sign-in/service-credentials.js';

/** Flags every command that talks to a server accepts. */
export const CONNECTION_FLAGS = {
  era: { type: 'string' },
  answers: { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  header: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  'max-rounds': { type: 'string' },
  output: { type: 'string' },
  root: { type: 'string', multiple: true },
  'no-roots': { type: 'boolean' },
  'no-open': { type: 'boolean' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'client-key': { type: 'string' },
  'workload-token': { type: 'string' },
  issuer: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** The help text for the connection flags every subcommand shares (`--answers`, `--era`, `--header`, ...). */
export const CONNECTION_FLAGS_HELP = `Options:
  --answers <file.json>  answer questions from a file (keyed by question key or message)
                         instead of asking in the terminal; required without a terminal
  --era <era>            auto (default: 2026-07-28 first, then the 2025 handshake),
                         modern or handshake
  --header "Name: value" an HTTP header for every request (repeatable)
  --timeout <seconds>    how long the server may take per request, not counting the
                         time you spend answering (default 60)
  --max-rounds <n>       rounds of questions one call may take (default 20)
  --output <format>      text (default) or json
  --root <dir>           a directory the server may work in, declared as a root
                         (repeatable; default: the current directory)
  --no-roots             declare no roots
  --no-open              when a server asks you to sign in, print the sign-in address
                         but do not open a browser (also: BROWSER=none)
  --client-id <id>       sign in as this service, not as a person in the browser
                         (client credentials; also PARLEY_CLIENT_ID), with
  --client-secret <s>    its secret (better: PARLEY_CLIENT_SECRET, which other users
                         cannot see in the process list), or
  --client-key <file>    its private key, PEM or JWK, a file only you can read
                         (a signed JWT is sent, never the key; PARLEY_CLIENT_KEY_FILE)
  --workload-token <file>  sign in as a workload with the JWT its platform wrote to
                         <file>, read at every sign-in (PARLEY_WORKLOAD_TOKEN_FILE)
  --issuer <url>         send those credentials only to this authorization server
                         (PARLEY_ISSUER); needed with a secret or a workload token
  -v, --verbose          print every round on stderr
  -h, --help             show this help`;

/** The connection flags of one command line, read and checked by `readConnectionSettings`. */
export interface ConnectionSettings {
  readonly era: 'auto' | 'modern' | 'handshake';
  readonly answersFile: string | undefined;
  readonly verbose: boolean;
  readonly headers: Record<string, string> | undefined;
  readonly requestTimeoutMs: number | undefined;
  readonly maxRounds: number | undefined;
  readonly output: 'text' | 'json';
  /** `--root` directories, `none` for `--no-roots`, or undefined for the default (the current directory). */
  readonly roots: readonly string[] | 'none' | undefined;
  /** Open the system browser when an HTTP server asks to sign in. */
  readonly openBrowser: boolean;
  /** Sign in as a service (flags or environment) instead of a person in the browser. */
  readonly service?: ServiceCredentials;
}

interface ParsedFlags {
  era?: string;
  answers?: string;
  verbose?: boolean;
  header?: string[];
  timeout?: string;
  'max-rounds'?: string;
  output?: string;
  root?: string[];
  'no-roots'?: boolean;
  'no-open'?: boolean;
  'client-id'?: string;
  'client-secret'?: string;
  'client-key'?: string;
  'workload-token'?: string;
  issuer?: string;
}

/** Reads the shared flags, refusing bad values with the fix. */
export function readConnectionSettings(flags: ParsedFlags, env: NodeJS.ProcessEnv = {}): ConnectionSettings {
  const era = flags.era ?? 'auto';
  if (era !== 'auto' && era !== 'modern' && era !== 'handshake') {
    throw new UsageError(`--era must be auto, modern or handshake; got "${era}"`);
  }
  const output = flags.output ?? 'text';
  if (output !== 'text' && output !== 'json')
    throw new UsageError(`--output must be text or json; got "${output}"`);
  return {
    era,
    answersFile: flags.answers,
    verbose: flags.verbose === true,
    headers: flags.header === undefined ? undefined : Object.fromEntries(flags.header.map(readHeader)),
    requestTimeoutMs:
      flags.timeout === undefined ? undefined : positiveNumber('--timeout', flags.timeout) * 1000,
    maxRounds:
      flags['max-rounds'] === undefined ? undefined : positiveInteger('--max-rounds', flags['max-rounds']),
    output,
    roots: readRoots(flags.root, flags['no-roots'] === true),
    openBrowser: flags['no-open'] !== true,
    ...serviceOf(flags, env),
  };
}

function readRoots(paths: string[] | undefined, none: boolean): readonly string[] | 'none' | undefined {
  if (none && paths !== undefined)
    throw new UsageError('--root and --no-roots contradict each other; use one');
  if (none) return 'none';
  if (paths?.some((path) => path.trim() === '')) throw new UsageError('--root needs a directory');
  return paths;
}

function readHeader(header: string): [string, string] {
  const colon = header.indexOf(':');
  if (colon <= 0) throw new UsageError(`--header must look like "Name: value"; got "${header}"`);
  return [header.slice(0, colon).trim(), header.slice(colon + 1).trim()];
}

function positiveNumber(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new UsageError(`${flag} must be a positive number; got "${text}"`);
  return value;
}

function positiveInteger(flag: string, text: string): number {
  const value = positiveNumber(flag, text);
  if (!Number.isInteger(value)) throw new UsageError(`${flag} must be a whole number; got "${text}"`);
  return value;
}

function serviceOf(flags: ParsedFlags, env: NodeJS.ProcessEnv): { service?: ServiceCredentials } {
  const service = readServiceCredentials(flags, env);
  return service === undefined ? {} : { service };
}
