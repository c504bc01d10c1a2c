import type { Readable, Writable } from 'node:stream';
import open from 'open';
import type { ElicitationUI } from '../types.js';
import { askFormInTerminal } from './form-flow.js';
import type { TerminalIO } from './io.js';
import { askSamplingInTerminal } from './sampling-flow.js';
import { askUrlInTerminal, waitForUrlInTerminal } from './url-flow.js';

/** Where the terminal host reads keys, draws its prompts and opens URLs; defaults suit a real terminal. */
export interface TerminalUIOptions {
  /** Where keys come from. Default `process.stdin` (must be a TTY). */
  input?: Readable;
  /** Where prompts are drawn. Default `process.stderr`, so results on stdout stay clean. */
  output?: Writable;
  /** Opens a consented URL. Default: the system browser, via `open`. */
  openUrl?: (url: string) => Promise<void>;
}

/**
 * The terminal host: every field kind of the form subset (defaults pre-filled, so an optional field
 * the person clears is sent empty; each answer checked
 * and asked again with the reason, a review screen to edit before sending), and URL questions with
 * the full address, the registrable domain emphasized, every warning and explicit consent.
 * Escape or Ctrl-C answers `cancel`; "Decline" answers `decline`. Sampling requests are shown as
 * what they are (a model request from this server, its messages, system prompt and token limit):
 * the person approves and types the reply, or declines; nothing is answered without them. It
 * declares `sampling` for that; roots it leaves to the program that knows them (see `parley`).
 *
 * @example
 * import { connect } from '@parley/client';
 * import { terminalUI } from '@parley/client/terminal';
 * const client = await connect('https://mcp.example.com/mcp', { ui: terminalUI() });
 */
export function terminalUI(options: TerminalUIOptions = {}): ElicitationUI {
  const io: TerminalIO = { input: options.input ?? process.stdin, output: options.output ?? process.stderr };
  const openUrl =
    options.openUrl ??
    (async (url: string) => {
      await open(url);
    });
  return {
    modes: { form: true, url: true },
    defaults: 'prefilled',
    form: (request, context) => askFormInTerminal(io, request, context),
    url: (request, inspection, context) => askUrlInTerminal(io, request, inspection, context, openUrl),
    waitForUrl: (_request, _inspection, context) => waitForUrlInTerminal(io, context),
    sampling: (request, context) => askSamplingInTerminal(io, request, context),
  };
}
