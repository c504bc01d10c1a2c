import type { InputRequest } from '@modelcontextprotocol/server';
import { isRecord, PARLEY_KEY_META } from '@parley/core';
import type { Json } from '../../state/round-state.js';
import type { QuestionKind } from '../question-kind.js';
import { readRootsReply } from '../responses.js';
import { malformed } from './elicit-reply.js';

/** A roots request: the client lists its roots (`ctx.roots`, `input.roots`). */
export type RootsItem = { readonly kind: 'roots'; readonly key: string };

const EXPECTED = 'a ListRootsResult ({ roots: [...] })';

export const rootsKind: QuestionKind<RootsItem> = {
  name: 'roots',
  capability: {
    required: { roots: {} },
    declared: (capabilities) => isRecord(capabilities) && isRecord(capabilities.roots),
    steer: 'this client did not declare roots; take the paths as tool arguments instead',
  },
  item: (key) => ({ kind: 'roots', key }),
  fingerprintText: (item) => `roots\0${item.key}`,
  request: {
    modern: () => ({ method: 'roots/list', params: {} }) as InputRequest,
    handshake: (item) => ({ method: 'roots/list', params: { _meta: { [PARLEY_KEY_META]: item.key } } }),
  },
  expected: EXPECTED,
  check(item, reply) {
    const roots = readRootsReply(reply);
    return roots ? { status: 'ok', result: roots } : malformed(item.key, EXPECTED);
  },
  encode: (_item, result) => result as Json,
  decode: (_item, encoded) => encoded,
};
