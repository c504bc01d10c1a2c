import { log } from '@clack/prompts';
import type { AskContext } from '../types.js';
import { paint, type TerminalIO } from './io.js';
import { terminalLine, terminalText } from './terminal-text.js';

/** Who asks, during which call, which round: shown above every question (server text made inert). */
export function describeAsker(context: AskContext): string {
  const { server } = context;
  const name =
    server.title && server.title !== server.name ? `${server.title} (${server.name})` : server.name;
  return `${terminalLine(name)} asks · ${describeCallPlace(context)}`;
}

/** During which call and round a question comes (server text made inert): `tool "book" · round 2`. */
export function describeCallPlace(context: AskContext): string {
  const { call, round, position } = context;
  const place = position.of > 1 ? ` · question ${position.index} of ${position.of}` : '';
  return terminalLine(`${call.kind} "${call.name}" · round ${round}${place}`);
}

/** Prints the header and the server's message before a question. */
export function showHeader(io: TerminalIO, context: AskContext, message: string): void {
  log.step(paint(io, 'bold', describeAsker(context)), io);
  log.message(terminalText(message).split('\n'), io);
}
