// Drives a real pseudo-terminal through tmux: starts a command in a detached session on a private
// tmux server, reads the screen, types and presses keys, and reads the exit status when it ends.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SETTLE_TIMEOUT_MS } from '@parley/testing';

const run = promisify(execFile);

export class Terminal {
  private constructor(
    private readonly socket: string,
    private readonly dir: string,
  ) {}

  /**
   * Starts `argv` in a 120×50 UTF-8 terminal with `env` added to its environment. With `stdoutFile`,
   * the command's stdout goes to that file (as in `parley call ... > out.txt`) while the prompts,
   * drawn on stderr, stay on the terminal. With `rawOutput`, every byte the command writes to the
   * terminal is also appended to that file, from its first byte (tmux pipe-pane).
   */
  static async start(
    argv: readonly string[],
    options: { env?: Record<string, string>; stdoutFile?: string; rawOutput?: string } = {},
  ): Promise<Terminal> {
    const env = options.env ?? {};
    const dir = await mkdtemp(join(tmpdir(), 'parley-tty-'));
    const socket = join(dir, 'tmux.sock');
    const config = join(dir, 'tmux.conf');
    await writeFile(config, 'set -g remain-on-exit on\nset -g history-limit 20000\n');
    const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
    // The shell writes the exit status to a file: more dependable than tmux noticing the pane died.
    const redirect = options.stdoutFile ? ` > ${quote(options.stdoutFile)}` : '';
    // With rawOutput the command waits until the pipe is attached, so no byte escapes it.
    const go = join(dir, 'go');
    const wait = options.rawOutput ? `while [ ! -e ${quote(go)} ]; do sleep 0.05; done; ` : '';
    const command = `${wait}${argv.map(quote).join(' ')}${redirect}; echo $? > ${quote(join(dir, 'status'))}`;
    const environment = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    await run('tmux', [
      '-u',
      '-S',
      socket,
      '-f',
      config,
      'new-session',
      '-d',
      '-s',
      'parley',
      '-x',
      '120',
      '-y',
      '50',
      ...environment,
      command,
    ]);
    if (options.rawOutput) {
      await run('tmux', ['-S', socket, 'pipe-pane', '-t', 'parley', `cat >> ${quote(options.rawOutput)}`]);
      await writeFile(go, '');
    }
    return new Terminal(socket, dir);
  }

  /** The pane's title, as the program running in it may have set it (OSC 0 / OSC 2). */
  async title(): Promise<string> {
    const { stdout } = await run('tmux', [
      '-S',
      this.socket,
      'display-message',
      '-p',
      '-t',
      'parley',
      '#{pane_title}',
    ]);
    return stdout.trim();
  }

  /** Everything the terminal showed so far, scrollback included, wrapped lines joined. */
  async screen(options: { escapes?: boolean } = {}): Promise<string> {
    const flags = ['-p', '-J', '-S', '-', ...(options.escapes ? ['-e'] : [])];
    const { stdout } = await run('tmux', ['-S', this.socket, 'capture-pane', ...flags, '-t', 'parley']);
    return stdout;
  }

  /** Waits until the screen matches; fails with the screen when it does not within `timeoutMs`. */
  async waitFor(pattern: RegExp | string, timeoutMs = SETTLE_TIMEOUT_MS): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      const screen = await this.screen();
      if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) return screen;
      if (Date.now() > deadline)
        throw new Error(`The terminal never showed ${String(pattern)}. It shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Types text literally (no key names). */
  async type(text: string): Promise<void> {
    await run('tmux', ['-S', this.socket, 'send-keys', '-t', 'parley', '-l', text]);
  }

  /** Presses keys by tmux name: Enter, Escape, Up, Down, Space, BSpace, C-c... */
  async press(...keys: string[]): Promise<void> {
    for (const key of keys) await run('tmux', ['-S', this.socket, 'send-keys', '-t', 'parley', key]);
  }

  /** Waits for the command to end and returns its exit status (128 + n when signal n ended it). */
  async exitCode(timeoutMs = SETTLE_TIMEOUT_MS): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      const status = await readFile(join(this.dir, 'status'), 'utf8').catch(() => '');
      if (status.trim() !== '') return Number(status.trim());
      if (Date.now() > deadline)
        throw new Error(`The command did not end. The terminal shows:\n${await this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async close(): Promise<void> {
    await run('tmux', ['-S', this.socket, 'kill-server']).catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
  }
}
