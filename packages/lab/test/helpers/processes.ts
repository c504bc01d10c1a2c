import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PROCESS_START_TIMEOUT_MS } from '@parley/testing';

/** The built lab package: end-to-end tests run only built code. */
export const LAB_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
/** The built `parley` command; the lab is `parley lab`. */
export const PARLEY_BIN = fileURLToPath(new URL('../../../cli/dist/bin.js', import.meta.url));
/** The lab's fixture MCP server (built with @parley/server, so it lives in the testing workspace). */
export const FIXTURE_SERVER = fileURLToPath(
  new URL('../../../../testing/dist/lab-fixture/fixture-server.js', import.meta.url),
);

export interface Running {
  /** The first match of the pattern in the process's output. */
  readonly match: RegExpExecArray;
  readonly child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `node <args>` and waits until a line of its stdout matches `pattern`. */
export function startNode(
  args: string[],
  pattern: RegExp,
  timeoutMs = PROCESS_START_TIMEOUT_MS,
): Promise<Running> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(
          `node ${args.join(' ')} printed nothing matching ${pattern} in ${timeoutMs} ms:\n${stdout}${stderr}`,
        ),
      );
    }, timeoutMs);
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk);
      const match = pattern.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ match, child, stderr: () => stderr, stop });
      }
    });
    // 'close', not 'exit': once it exited, what it printed last may still be on its way.
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`node ${args.join(' ')} exited with ${code}:\n${stdout}${stderr}`));
    });
  });
}

/** Starts `parley lab <args>`; resolves once it printed its URL. */
export async function startLabProcess(args: string[] = []): Promise<Running & { url: string }> {
  const running = await startNode([PARLEY_BIN, 'lab', ...args], /Lab: (http:\/\/\S+)/);
  return { ...running, url: running.match[1]! };
}

/** Starts the fixture server over HTTP; resolves with its endpoint URL. */
export async function startHttpFixture(): Promise<Running & { url: string }> {
  const running = await startNode([FIXTURE_SERVER, '--http'], /(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  return { ...running, url: running.match[1]! };
}

/** The command line that starts the fixture server over stdio. */
export const STDIO_FIXTURE = `${JSON.stringify(process.execPath)} ${JSON.stringify(FIXTURE_SERVER)}`;
