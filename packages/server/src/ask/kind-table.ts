import { ElicitationUnavailable } from '../errors.js';
import { formKind } from './kinds/form.js';
import { pageKind } from './kinds/page.js';
import { rootsKind } from './kinds/roots.js';
import { samplingKind } from './kinds/sampling.js';
import { urlKind } from './kinds/url.js';
import type { AskItem, QuestionKind } from './question-kind.js';

/**
 * Every kind of question the server can ask, by name. A new kind is one more entry: one
 * {@link QuestionKind} object and one `registerKind` call (plus the `ctx` method that asks it).
 */
const KINDS = new Map<string, QuestionKind>();

/** Adds a kind of question to the table (a name already taken is a mistake in the server's code). */
export function registerKind<I extends AskItem>(kind: QuestionKind<I>): void {
  if (KINDS.has(kind.name))
    throw new TypeError(`A question kind named '${kind.name}' is already registered.`);
  KINDS.set(kind.name, kind as unknown as QuestionKind);
}

for (const kind of [formKind, pageKind, urlKind, samplingKind, rootsKind])
  registerKind<AskItem>(kind as never);

/** The entry for a kind that is in the table (every item was built from one). */
export function kindOf(item: Pick<AskItem, 'kind'>): QuestionKind {
  const kind = KINDS.get(item.kind);
  if (!kind)
    throw new TypeError(
      `Unknown question kind '${item.kind}'; the known kinds are ${[...KINDS.keys()].join(', ')}.`,
    );
  return kind;
}

/**
 * Whether a client with `clientCapabilities` on `protocolVersion` can be asked `name` (false for a
 * kind nobody registered).
 */
export function isDeclared(name: string, clientCapabilities: unknown, protocolVersion: string): boolean {
  return KINDS.get(name)?.capability.declared(clientCapabilities, protocolVersion) ?? false;
}

/** Throws {@link ElicitationUnavailable} when the client did not declare what `kind` needs. */
export function requireDeclared(kind: QuestionKind, declared: (name: string) => boolean): void {
  if (!declared(kind.name)) throw new ElicitationUnavailable(kind.name, kind.capability);
}

/** The message a question is sent with: its own, or the re-ask text after an invalid answer. */
export function questionMessage(item: AskItem, reason?: string): string {
  const message = item.message ?? '';
  return reason === undefined ? message : `That answer could not be used: ${reason}\n\n${message}`;
}

/**
 * What a page's question says when it comes again because the client said the person had finished
 * (2026-07-28: it sends `accept`) while the page was not answered yet.
 */
export const NOT_FINISHED_YET =
  'The page has not been answered yet: answer it (or finish it) in your browser first, then come back and say you have finished.';
