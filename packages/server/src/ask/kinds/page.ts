import type { PreparedQuestion } from '@parley/core/form';
import type { ElicitOutcome, UrlOutcome } from '../../ask-types.js';
import type { QuestionPages } from '../../pages/question-pages.js';
import type { Json } from '../../state/round-state.js';
import type { CallSecrets } from '../call-secrets.js';
import type { QuestionKind } from '../question-kind.js';
import { decodeRefusal } from './elicit-reply.js';
import { flowOutcome } from './flow-outcome.js';
import { decodeFormAnswer, encodeFormAnswer, questionText } from './form.js';
import { checkUrlReply, handshakeUrlRequest, modernUrlRequest, URL_REPLY_EXPECTED } from './url-request.js';

/**
 * A form question asked on a page of this server (question pages): the client is sent to the page
 * with a URL-mode question (`route: 'url'`), or the call ends with the link in its result and
 * goes on when the same call comes again (`route: 'link'`). Built by the context once the page is
 * open (its id is journaled, so every round points at the same page).
 */
export type PageItem = {
  readonly kind: 'page';
  readonly key: string;
  readonly message: string;
  readonly question: PreparedQuestion<unknown>;
  readonly route: 'url' | 'link';
  /** The page's id (its flow's). */
  readonly page: string;
  readonly url: string;
  /** Who the page is for, as its flow records it. */
  readonly principal: string;
  readonly pages: QuestionPages;
  /** The call's secrets, erased when it ends: a secret answer is added here. */
  readonly secrets: CallSecrets;
  /** A confirmation with proof: the page's answer counts only for this call. */
  readonly binding?: string;
  /** The server's name as the person knows it (it says whose page opens). */
  readonly asker: string;
};

/** A journaled answer that holds a secret: it is read from the page's sealed answer, never journaled. */
const SEALED = 'p';

export const pageKind: QuestionKind<PageItem> = {
  name: 'page',
  capability: {
    required: { elicitation: { url: {} } },
    // A page reaches every client: by URL mode where it is declared, else by a link in the result.
    declared: () => true,
    steer: 'this question can only be answered on a page of this server',
  },
  item: (_key, entry) => entry as unknown as PageItem,
  // The same as the form's: the question is the same wherever it is asked, so a call that asked it
  // in-band, or on a page, replays either way.
  fingerprintText: (item) => `form\0${item.key}\0${item.message}\0${questionText(item.question)}`,
  request: {
    modern: (item, message) => modernUrlRequest(pageMessage(item, message), item.url),
    handshake: (item, message) =>
      handshakeUrlRequest(item.key, pageMessage(item, message), item.url, item.page),
  },
  expected: URL_REPLY_EXPECTED,
  check: (item, reply) => checkUrlReply(item.key, reply),
  outOfBand: (item) => (item.route === 'link' ? { url: item.url, message: item.message } : undefined),
  /**
   * `accept` to the URL question means only "I agreed to open it": the answer is what the person
   * gave on the page, read from its flow (a page still open is not an answer yet).
   */
  async settle(item, result, watch) {
    const consent = result as UrlOutcome;
    if (consent.action !== 'accept') {
      await item.pages.cancel(item.page);
      return { action: consent.action };
    }
    const check = await watch({ id: item.page, kit: item.pages.kit, principal: item.principal });
    return flowOutcome(check, item.message, (settled) => read(item, settled));
  },
  encode(item, result) {
    const outcome = result as ElicitOutcome<unknown>;
    if (outcome.action === 'accept' && item.question.secretFields.length > 0) return SEALED;
    return encodeFormAnswer(item.question, outcome);
  },
  decode(item, encoded) {
    if (encoded === SEALED) return read(item, { action: 'accept', sealed: true });
    return decodeRefusal(encoded) ?? decodeFormAnswer(item.question, encoded);
  },
};

/** The page's answer, checked with the question's rules; a secret one is noted for erasure. */
async function read(item: PageItem, settled: Json): Promise<ElicitOutcome<unknown>> {
  const outcome = await item.pages.answerOf(item.page, settled, item.question, item.binding);
  if (outcome.action === 'accept' && item.question.secretFields.length > 0) item.secrets.add(item.page);
  return outcome as ElicitOutcome<unknown>;
}

function pageMessage(item: PageItem, message: string): string {
  return `${message}\n\nYou answer this on a page of ${item.asker}.`;
}
