/** What reading a JSON-RPC POST body gave. */
export type BodyRead =
  | { readonly ok: true; readonly body: unknown; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly status: 400 | 413; readonly code: number; readonly message: string };

import type { CappedBody } from '@parley/core/node';
import { nestsDeeperThan } from './json-depth.js';
import { INVALID_REQUEST, PARSE_ERROR } from './rpc-error.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * How deep a request's JSON may nest. MCP messages need a handful of levels and tool arguments
 * rarely a dozen; far deeper input is an attack on code that walks it recursively (sealing a
 * state canonicalises the arguments).
 */
export const MAX_JSON_DEPTH = 100;

/**
 * Parses a request body read under a byte limit (see `HttpExchange.readBody`): a body over the
 * limit is refused with 413, and invalid UTF-8, invalid JSON and JSON nested deeper than
 * {@link MAX_JSON_DEPTH} levels with a JSON-RPC parse error.
 */
export function parseJsonBody(read: CappedBody, maxBytes: number): BodyRead {
  if (!read.ok) {
    return read.reason === 'too-large'
      ? {
          ok: false,
          status: 413,
          code: INVALID_REQUEST,
          message: `Request body is larger than ${maxBytes} bytes; send smaller requests.`,
        }
      : { ok: false, status: 400, code: INVALID_REQUEST, message: `Bad request: ${read.message}` };
  }
  const { bytes } = read;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return {
      ok: false,
      status: 400,
      code: PARSE_ERROR,
      message: 'Parse error: the request body is not valid UTF-8.',
    };
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      status: 400,
      code: PARSE_ERROR,
      message: `Parse error: the request body nests JSON more than ${MAX_JSON_DEPTH} levels deep; send flatter data.`,
    };
  }
  try {
    return { ok: true, body: JSON.parse(text), bytes };
  } catch {
    return {
      ok: false,
      status: 400,
      code: PARSE_ERROR,
      message: 'Parse error: the request body is not valid JSON.',
    };
  }
}
