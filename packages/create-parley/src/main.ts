import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseOptions, type ScaffoldOptions, USAGE } from './options.js';
import { scaffold } from './scaffold.js';

/** Where the command writes, and what it may read. */
export interface Io {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly cwd: string;
}

/** This package's version: the version of @parley/* a new project depends on (they are released together). */
export function ownVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** Runs `create-parley` with these arguments; resolves to the exit code (0, or 2 for a mistake). */
export async function main(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseOptions(args);
  if (parsed.kind === 'help') {
    io.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'error') {
    io.stderr.write(`create-parley: ${parsed.message}\n`);
    return 2;
  }
  let made: ReturnType<typeof scaffold>;
  try {
    made = scaffold(parsed.options, io.cwd, ownVersion());
  } catch (error) {
    io.stderr.write(`create-parley: ${(error as Error).message}\n`);
    return 2;
  }
  const folder = relative(io.cwd, made.root) || '.';
  io.stdout.write(
    [
      `Created ${made.name} (${describe(parsed.options)}) in ${folder}`,
      '',
      ...(folder === '.' ? [] : [`  cd ${folder}`]),
      '  npm install',
      '  npm test',
      '  npm run inspect   # the Parley lab on your server, in the browser',
      '',
      'Then change src/server.ts: README.md says what to change first.',
      '',
    ].join('\n'),
  );
  return 0;
}

function describe(options: ScaffoldOptions): string {
  if (options.transport === 'stdio') return 'stdio';
  return options.oauth ? 'HTTP, OAuth-protected' : 'HTTP';
}
