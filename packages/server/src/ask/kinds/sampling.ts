import type { CreateMessageRequestParams, InputRequest } from '@modelcontextprotocol/server';
import { isRecord } from '@parley/core';
import { canonicalJson } from '../../state/canonical-json.js';
import type { Json } from '../../state/round-state.js';
import type { QuestionKind } from '../question-kind.js';
import { readSamplingReply } from '../responses.js';
import { malformed } from './elicit-reply.js';

/** A sampling request: the client's model answers (`ctx.sample`, `input.sampling`). */
export type SamplingItem = {
  readonly kind: 'sampling';
  readonly key: string;
  readonly params: CreateMessageRequestParams;
};

const EXPECTED = 'a CreateMessageResult';

export const samplingKind: QuestionKind<SamplingItem> = {
  name: 'sampling',
  capability: {
    required: { sampling: {} },
    declared: (capabilities) => isRecord(capabilities) && isRecord(capabilities.sampling),
    steer: 'this client did not declare sampling; call a model from the server instead',
  },
  item: (key, entry) => ({ kind: 'sampling', key, params: entry.params as CreateMessageRequestParams }),
  fingerprintText: (item) => `sampling\0${item.key}\0${canonicalJson(item.params)}`,
  request: {
    modern: (item) => ({ method: 'sampling/createMessage', params: item.params }) as InputRequest,
    handshake: (item) => ({ method: 'sampling/createMessage', params: item.params }),
  },
  expected: EXPECTED,
  check(item, reply) {
    const result = readSamplingReply(reply);
    return result ? { status: 'ok', result } : malformed(item.key, EXPECTED);
  },
  encode: (_item, result) => result as Json,
  decode: (_item, encoded) => encoded,
};
