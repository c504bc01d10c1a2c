// Runs the built `parley` (dist/bin.js) as a real process, the way a person or a script would.
import { fileURLToPath } from 'node:url';
import { type NodeRun, runNode } from '@parley/testing';

export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const clientFixtures = new URL('../../client/test/fixtures/', import.meta.url);

/** A fixture server of @parley/client's tests, by file name. */
export const fixture = (name: string): string => fileURLToPath(new URL(name, clientFixtures));

/** The fixture server as a quoted command line, as a person would type it. */
export const stdioTarget = (...flags: string[]): string =>
  ['node', `"${fixture('stdio-server.mjs')}"`, ...flags].join(' ');

export type Run = NodeRun;

/** Runs parley with no terminal (stdin is a pipe) and collects what it printed. */
export function runParley(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return runNode([BIN, ...args], { env });
}
