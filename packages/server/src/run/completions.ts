import { type CompleteResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isRecord } from '@parley/core';
import type { App } from '../app.js';
import type { Completers } from '../types.js';

const MAX_VALUES = 100;

/**
 * Answers `completion/complete` for a prompt argument (`ref/prompt`) or a resource-template variable
 * (`ref/resource`) from the completers registered with it. Without a completer the answer is an
 * empty list; an unknown prompt or template is `-32602`.
 */
export async function complete(app: App, params: unknown): Promise<CompleteResult> {
  const ref = isRecord(params) && isRecord(params.ref) ? params.ref : undefined;
  const argument = isRecord(params) && isRecord(params.argument) ? params.argument : undefined;
  if (!ref || !argument || typeof argument.name !== 'string' || typeof argument.value !== 'string')
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'completion/complete needs ref and argument { name, value }.',
    );
  let completers: Completers | undefined;
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    const prompt = app.prompts.get(ref.name);
    if (!prompt)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown prompt '${ref.name}'; call prompts/list to see the prompts.`,
      );
    completers = prompt.complete;
  } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    completers = app.resources.completersOf(ref.uri);
    if (!completers && !app.resources.has(ref.uri))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource template '${ref.uri}'.`);
  } else {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'completion/complete: ref must be ref/prompt { name } or ref/resource { uri }.',
    );
  }
  const completer =
    completers && Object.hasOwn(completers, argument.name) ? completers[argument.name] : undefined;
  if (!completer) return { completion: { values: [], hasMore: false } };
  const context =
    isRecord(params) && isRecord(params.context) && isRecord(params.context.arguments)
      ? params.context.arguments
      : {};
  const others = Object.fromEntries(
    Object.entries(context).filter(([, value]) => typeof value === 'string'),
  ) as Record<string, string>;
  let values: string[];
  try {
    values = [...(await completer(argument.value, { arguments: others }))].map(String);
  } catch (error) {
    // The one error policy: what failed goes to the log, the client gets a reference, not the details.
    const reference = crypto.randomUUID().slice(0, 8);
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    app.log('error', `Completer for '${argument.name}' failed (reference ${reference}): ${detail}`);
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Completion failed with an internal error (reference ${reference}); the server log has the details.`,
    );
  }
  return {
    completion: {
      values: values.slice(0, MAX_VALUES),
      total: values.length,
      hasMore: values.length > MAX_VALUES,
    },
  };
}
