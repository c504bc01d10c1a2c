import { execFile } from 'node:child_process';

/** What a finished command printed. */
export interface Ran {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment for a child npm or node: this one without the `npm_*` variables an outer
 * `npm run` sets, so a child npm reads only its own project's configuration, as a user's would;
 * and without colours, so what it prints can be read.
 */
export function cleanEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^npm_/i.test(name) && name !== 'FORCE_COLOR') env[name] = value;
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Options of `run`. */
export interface RunOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

/**
 * Runs a command to completion. Rejects when it exits with anything but 0, with an error that
 * names the command and ends with what it printed.
 */
export function run(file: string, args: readonly string[], options: RunOptions): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      [...args],
      {
        cwd: options.cwd,
        env: cleanEnv(options.env),
        timeout: options.timeoutMs ?? 300_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, stderr });
        const how = error.killed ? `was stopped (${error.signal})` : `exited with ${String(error.code)}`;
        reject(
          new Error(
            `\`${[file, ...args].join(' ')}\` in ${options.cwd} ${how}\n--- stdout\n${tail(stdout)}\n--- stderr\n${tail(stderr)}`,
          ),
        );
      },
    );
  });
}

const tail = (text: string) => (text.length > 6000 ? `…${text.slice(-6000)}` : text);
