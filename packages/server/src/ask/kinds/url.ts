import { elicitationModes } from '@parley/core/capabilities';
import type { ElicitOutcome, UrlOutcome } from '../../ask-types.js';
import type { Json } from '../../state/round-state.js';
import { requireMessage, requireSafeUrl } from '../guardrails.js';
import type { FlowRef, QuestionKind } from '../question-kind.js';
import { refuseVagueMessage } from '../vague-message.js';
import { decodeRefusal, encodeRefusal } from './elicit-reply.js';
import { flowOutcome } from './flow-outcome.js';
import { checkUrlReply, handshakeUrlRequest, modernUrlRequest, URL_REPLY_EXPECTED } from './url-request.js';

/** A URL question: the person is sent to a page (`ctx.elicitUrl`, `input.url`). */
export type UrlItem = {
  readonly kind: 'url';
  readonly key: string;
  readonly message: string;
  readonly url: string;
  /** Set when the page is a flow of this server, whose completion the server checks. */
  readonly flow?: FlowRef;
  /** The 2025-11-25 `elicitationId` its author chose (a random one otherwise). */
  readonly elicitationId?: string;
};

export const urlKind: QuestionKind<UrlItem> = {
  name: 'url',
  capability: {
    required: { elicitation: { url: {} } },
    declared: (capabilities, protocolVersion) => elicitationModes(capabilities, protocolVersion).url,
    steer:
      'this client did not declare elicitation.url; ask with a form only if the data is not secret, or tell the person to open the page themselves',
  },
  item: (key, entry) => ({
    kind: 'url',
    key,
    message: refuseVague(requireMessage('URL', entry.message), entry.allowVagueMessage),
    url: requireSafeUrl(entry.url as string),
    ...(entry.flow !== undefined && { flow: entry.flow as FlowRef }),
    ...(typeof entry.elicitationId === 'string' && { elicitationId: entry.elicitationId }),
  }),
  fingerprintText: (item) => `url\0${item.key}\0${item.message}\0${item.url}`,
  request: {
    modern: (item, message) => modernUrlRequest(message, item.url),
    handshake: (item, message) =>
      handshakeUrlRequest(
        item.key,
        message,
        item.url,
        item.flow?.id ?? item.elicitationId ?? crypto.randomUUID(),
      ),
  },
  expected: URL_REPLY_EXPECTED,
  check: (item, reply) => checkUrlReply(item.key, reply),
  /**
   * A flow's answer counts only once the flow settled on the server: `accept` means only that the
   * person agreed to open the page, so a flow still pending is not an answer yet (the 2026-07-28
   * era asks again, and the host offers "I've finished" / cancel).
   */
  async settle(item, result, watch) {
    const flow = item.flow;
    if (!flow) return result;
    const outcome = result as UrlOutcome;
    if (outcome.action !== 'accept') {
      await flow.kit.cancel(flow.id);
      return outcome;
    }
    return flowOutcome(await watch(flow), item.message, (value) => ({ action: 'accept', value }));
  },
  /** A consent to a plain URL is `'a'`; a flow's result is `[value]`. */
  encode(item, result) {
    const outcome = result as ElicitOutcome<unknown>;
    const refusal = encodeRefusal(outcome);
    if (refusal) return refusal;
    if (!item.flow) return 'a';
    const value = (outcome as { value?: unknown }).value;
    return value === undefined ? [] : [value as Json];
  },
  decode(item, encoded) {
    const refusal = decodeRefusal(encoded);
    if (refusal) return refusal;
    if (!item.flow) return { action: 'accept' };
    return { action: 'accept', value: (encoded as Json[])[0] };
  },
};

function refuseVague(message: string, allowed: unknown): string {
  refuseVagueMessage('URL', message, allowed);
  return message;
}
