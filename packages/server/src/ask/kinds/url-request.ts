import type { ElicitRequestURLParams, InputRequest } from '@modelcontextprotocol/server';
import { PARLEY_KEY_META } from '@parley/core';
import type { CheckedReply } from '../question-kind.js';
import { readElicitReply } from '../responses.js';
import { malformed } from './elicit-reply.js';

// What a URL question and a question page (which is asked as a URL question) both send and read.

/** What a URL question's reply must be. */
export const URL_REPLY_EXPECTED = 'an ElicitResult ({ action: "accept" | "decline" | "cancel" })';

/** The URL-mode question of a 2026-07-28 round. */
export function modernUrlRequest(message: string, url: string): InputRequest {
  return { method: 'elicitation/create', params: { mode: 'url', message, url } } as InputRequest;
}

/** The URL-mode `elicitation/create` of a 2025 session, with the question's key in `_meta`. */
export function handshakeUrlRequest(
  key: string,
  message: string,
  url: string,
  elicitationId: string,
): { method: 'elicitation/create'; params: ElicitRequestURLParams } {
  return {
    method: 'elicitation/create',
    params: { mode: 'url', message, url, elicitationId, _meta: { [PARLEY_KEY_META]: key } },
  };
}

/** The person's action on a URL question, or the -32602 material for a reply that is not one. */
export function checkUrlReply(key: string, reply: unknown): CheckedReply {
  const elicit = readElicitReply(reply);
  return elicit ? { status: 'ok', result: { action: elicit.action } } : malformed(key, URL_REPLY_EXPECTED);
}
