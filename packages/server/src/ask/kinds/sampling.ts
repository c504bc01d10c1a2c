import {
  type CreateMessageRequestParams,
  type InputRequest,
  ProtocolError,
} from '@modelcontextprotocol/server';
import { isRecord, PARLEY_KEY_META } from '@parley/core';
import { SamplingDeclinedError } from '../../errors.js';
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

// On 2026-07-28 a client that declines does not retry, so a decline never arrives as a reply.
const EXPECTED =
  'a CreateMessageResult (a client whose user declines a sampling request does not retry the call on 2026-07-28)';

/** "User rejected sampling request", as the 2025 specs' sampling pages give it. */
const USER_REJECTED = -1;

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
    // Parley's key in _meta, as forms, URLs and roots carry it, so a host knows which ask it answers.
    handshake: (item) => ({
      method: 'sampling/createMessage',
      params: { ...item.params, _meta: { ...item.params._meta, [PARLEY_KEY_META]: item.key } },
    }),
  },
  expected: EXPECTED,
  check(item, reply) {
    const result = readSamplingReply(reply);
    return result ? { status: 'ok', result } : malformed(item.key, EXPECTED);
  },
  refusal: (error) =>
    error instanceof ProtocolError && error.code === USER_REJECTED
      ? new SamplingDeclinedError(error.code)
      : undefined,
  encode: (_item, result) => result as Json,
  decode: (_item, encoded) => encoded,
};
