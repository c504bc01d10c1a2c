import { isRecord } from '@parley/core';

const ROUND_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * Checks the retry material of a round-capable request before anything else sees it: the SDK
 * quietly drops an `inputResponses` that is not an object, and Parley answers -32602 instead, so a
 * broken client learns what it sent wrong. Returns the problem, or `undefined` when it is fine.
 */
export function inboundProblem(message: unknown): string | undefined {
  if (!isRecord(message) || typeof message.method !== 'string' || !ROUND_METHODS.has(message.method))
    return undefined;
  const params = message.params;
  if (!isRecord(params)) return undefined;
  if ('inputResponses' in params) {
    const responses = params.inputResponses;
    if (!isRecord(responses)) {
      return 'Invalid inputResponses: it must be an object mapping each inputRequests key to its result';
    }
    for (const [key, value] of Object.entries(responses)) {
      if (!isRecord(value)) {
        return `Invalid inputResponses: the value for '${key}' must be a result object (e.g. { "action": "accept", "content": { ... } })`;
      }
    }
  }
  if ('requestState' in params && typeof params.requestState !== 'string') {
    return 'Invalid requestState: it must be the exact string the server sent, or absent';
  }
  return paramsProblem(message.method, params);
}

/**
 * The client mistakes in a call's own parameters that the SDK would otherwise answer with an
 * internal error carrying its schema library's dump: a short reason instead.
 */
function paramsProblem(method: string, params: Record<string, unknown>): string | undefined {
  if (method === 'resources/read') {
    return typeof params.uri === 'string' ? undefined : 'Invalid params: "uri" must be a string';
  }
  if (typeof params.name !== 'string') return 'Invalid params: "name" must be a string';
  const args = params.arguments;
  if (args === undefined) return undefined;
  if (!isRecord(args)) return 'Invalid params: "arguments" must be an object of named arguments';
  if (method === 'prompts/get') {
    const notText = Object.entries(args).find(([, value]) => typeof value !== 'string');
    if (notText) return `Invalid params: prompt argument '${notText[0]}' must be a string`;
  }
  return undefined;
}
