import { elicitationModes } from '@parley/core/capabilities';
import { type AskItem, askPoint } from '../ask/ask-item.js';
import { CallSecrets } from '../ask/call-secrets.js';
import { markModeFailed, modeFailedFor } from '../ask/forms-failed.js';
import { isDeclared } from '../ask/kind-table.js';
import type { FormItem } from '../ask/kinds/form.js';
import type { PageItem } from '../ask/kinds/page.js';
import type { QuestionKind } from '../ask/question-kind.js';
import { routeForm } from '../ask/route.js';
import { pageItem, routeFacts } from '../context/page-questions.js';
import { batchItems, createContext } from '../context/parley-context.js';
import { NotificationSequence } from '../context/side-channels.js';
import { RoundLimitError } from '../errors.js';
import { type InputRequired, isInputRequired } from '../input-required.js';
import type { RoundObserver } from '../middleware.js';
import type { CallRequest } from '../request/call-request.js';
import { newCallId, type RoundState } from '../state/round-state.js';
import { CallBinding } from './call-binding.js';
import type { EraCall, EraModule } from './era.js';
import { answeredGuardRound, guardLoopHint } from './guard-rounds.js';
import { parkCall, resumeParked } from './park-call.js';
import { type FallbackReason, PushEngine } from './push-engine.js';
import { type CallClient, RunFacts } from './run-facts.js';
import { NO_TASKS } from './task-start.js';

/**
 * The 2025 eras (2025-06-18, 2025-11-25): questions are requests over the session, and the handler
 * waits for their answers; the call's result is the handler's. A client that cannot show a form
 * gets it on a page of the server; one that cannot open URLs either gets the page's link in the
 * result, and the call parks until the same call comes again.
 *
 * Written as a chain of promises, not an `await` loop: a 2025-era call waits on the person for as
 * long as they take, and a suspended async frame per pending call is memory.
 */
export const handshakeEra: EraModule = {
  run<R>(request: CallRequest, call: EraCall<R>, observe: RoundObserver | undefined): Promise<R> {
    try {
      const { app } = request;
      const client = handshakeClient(request);
      const { clientCapabilities } = client;
      // Only a call whose questions could not be sent as URLs was parked (its page went by link).
      const opensUrls =
        elicitationModes(clientCapabilities, client.protocolVersion).url &&
        (client.host?.opensPages(true) ?? true);
      const parkable =
        app.pages?.mayHoldParked === true && (!opensUrls || modeFailedFor('url', clientCapabilities));
      if (!parkable) return start(request, call, observe, client, undefined);
      return resumeParked(request, app.pages!, new CallBinding(request, call.spec)).then((resumed) => {
        if (resumed?.formsFailed) markModeFailed('form', clientCapabilities);
        if (resumed?.urlFailed) markModeFailed('url', clientCapabilities);
        return start(request, call, observe, client, resumed?.state);
      });
    } catch (error) {
      return Promise.reject(error);
    }
  },
};

/** The client of a 2025-era call: what its session negotiated. */
function handshakeClient(request: CallRequest): CallClient {
  const { server } = request;
  const protocolVersion = server.getNegotiatedProtocolVersion() ?? '2025-06-18';
  const clientInfo = server.getClientVersion();
  return {
    protocolVersion,
    clientCapabilities: server.getClientCapabilities(),
    clientInfo,
    host: request.app.hosts.of(clientInfo, protocolVersion),
  };
}

/** Runs the call, from the top or going on from a parked state. */
function start<R>(
  request: CallRequest,
  call: EraCall<R>,
  observe: RoundObserver | undefined,
  client: CallClient,
  resumed: RoundState | undefined,
): Promise<R> {
  const callId = resumed?.callId ?? newCallId();
  const engine = new PushEngine(request, observe, client.protocolVersion, callId, resumed, client.host);
  const session = request.session;
  const first = new RunFacts(
    request,
    call,
    client,
    NO_TASKS,
    new CallSecrets(),
    session === undefined ? undefined : `session:${session}`,
    true,
    undefined,
    new NotificationSequence(resumed?.notified),
  );
  engine.onRefused(refusedQuestion, first);
  return runRound(call, engine, first, 1, first);
}

/**
 * Where a question the client refused to show (or its host would give up on) goes instead: a page
 * question's URL becomes a link in the result; a form goes to a page of the server, when it has
 * pages. A module function given the call's facts, not a closure per call: a 2025-era call keeps it
 * while the person answers. Only a refusal marks the mode failed for the rest of the session.
 */
function refusedQuestion(
  item: AskItem,
  kind: QuestionKind,
  engine: PushEngine,
  first: RunFacts,
  why: FallbackReason,
): Promise<AskItem> | undefined {
  const { clientCapabilities, protocolVersion } = first;
  if (kind.name === 'page' && (item as PageItem).route === 'url') {
    // The client cannot open the page's URL question either: the link goes in the result.
    markModeFailed('url', clientCapabilities);
    return Promise.resolve({ ...(item as PageItem), route: 'link' as const });
  }
  if (kind.name !== 'form' || !first.pages) return undefined;
  if (why === 'refused') markModeFailed('form', clientCapabilities);
  const form = item as FormItem;
  const facts = routeFacts(first, (mode) => isDeclared(mode, clientCapabilities, protocolVersion));
  const route = routeForm(form.question, facts, { via: why === 'refused' ? 'auto' : 'page', proof: false });
  if (route.kind !== 'page') return undefined;
  return pageItem(first, engine, form.key, form, route, { confirm: false, proof: false });
}

/**
 * What a call ends with: its result, its failure, or (parked at a page) the page's link. `first`:
 * the facts of its first round.
 */
function ended<R>(
  call: EraCall<R>,
  engine: PushEngine,
  first: RunFacts,
  outcome: { value: R } | { error: unknown },
): Promise<R> {
  const { request } = first;
  const { app } = request;
  const parked = engine.parked;
  if (parked && app.pages) {
    const state = engine.state(first.notifications?.reached ?? 0);
    return parkCall(request, app.pages, new CallBinding(request, call.spec), {
      state,
      items: parked,
      formsFailed: modeFailedFor('form', first.clientCapabilities),
      urlFailed: modeFailedFor('url', first.clientCapabilities),
    }) as Promise<never>;
  }
  return first.secrets.erase(app.pages).then(() => {
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  });
}

/**
 * Runs the handler once; a guard-style `inputRequired()` leads to the next round, and the last
 * round's outcome ends the call ({@link ended}). One `.then` per round, its two handlers sharing one
 * context: all a call waiting on its person holds of this era.
 */
function runRound<R>(
  call: EraCall<R>,
  engine: PushEngine,
  facts: RunFacts,
  round: number,
  first: RunFacts,
): Promise<R> {
  let running: Promise<unknown>;
  try {
    running = call.handler(createContext(facts, engine));
  } catch (error) {
    return ended(call, engine, first, { error });
  }
  return running.then(
    (result) =>
      isInputRequired(result)
        ? askGuard(call, engine, facts, round, result, first)
        : ended(call, engine, first, { value: result as R }),
    (error: unknown) => ended(call, engine, first, { error }),
  );
}

/**
 * Guard style: the questions of `inputRequired()` are asked over the session, then the handler
 * runs again with their answers, in the same request (a 2025 client never sees input_required).
 * It runs from the top, so what its earlier runs sent is not sent again.
 */
function askGuard<R>(
  call: EraCall<R>,
  engine: PushEngine,
  facts: RunFacts,
  round: number,
  asked: InputRequired,
  first: RunFacts,
): Promise<R> {
  const { maxRounds } = facts.request.app;
  const notifications = new NotificationSequence(facts.notifications?.reached);
  let items: ReturnType<typeof batchItems>;
  try {
    items = batchItems(
      asked.questions,
      (kind) => isDeclared(kind, facts.clientCapabilities, facts.protocolVersion),
      facts.host,
    );
    if (round >= maxRounds) throw new RoundLimitError(maxRounds, guardLoopHint(facts.guard, items));
  } catch (error) {
    return ended(call, engine, first, { error });
  }
  return engine.ask(askPoint(items, true)).then(
    (results) => {
      let next: RunFacts;
      try {
        next = facts.nextRun(answeredGuardRound(items, results, asked.data), notifications);
      } catch (error) {
        return ended(call, engine, first, { error });
      }
      return runRound(call, engine, next, round + 1, first);
    },
    (error: unknown) => ended(call, engine, first, { error }),
  );
}
