import type { Readable, Writable } from 'node:stream';
import { styleText } from 'node:util';

/** Where the terminal UI reads keys and draws. Prompts draw on stderr so results on stdout stay clean. */
export interface TerminalIO {
  readonly input: Readable;
  readonly output: Writable;
}

type Style = Parameters<typeof styleText>[0];

/** Styles text with ANSI codes when the UI's output stream takes colors (Node checks the stream and NO_COLOR). */
export function paint(io: TerminalIO, style: Style, text: string): string {
  return styleText(style, text, { stream: io.output });
}

/**
 * A signal for one prompt that follows the question's signal. Each prompt listens on its own, so a
 * long form does not pile listeners on the question's signal (and trip Node's leak warning).
 */
export function promptSignal(signal: AbortSignal): AbortSignal {
  return AbortSignal.any([signal]);
}
