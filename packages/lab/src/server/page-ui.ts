import { type AskContext, type ElicitationUI, samplingView, type UrlConsent } from '@parley/client';
import type { QuestionContext, RootChoice } from '../protocol.js';
import type { QuestionBroker } from './question-broker.js';

/** The parts of a client's ask context the page shows (never the signal or the call's arguments). */
export function questionContext(context: AskContext): QuestionContext {
  const { server, call, round, key, position, era } = context;
  return {
    server: {
      name: server.name,
      version: server.version,
      ...(server.title !== undefined && { title: server.title }),
    },
    call: { kind: call.kind, name: call.name },
    round,
    ...(key !== undefined && { key }),
    position: { index: position.index, of: position.of },
    era,
  };
}

/** What a reply typed by the person says it came from, in `CreateMessageResult.model`. */
export const TYPED_REPLY_MODEL = 'human';

/**
 * The lab's host for one server connection: every question goes to the page through the broker,
 * and the person's answer comes back. `callOf` names the lab call a question belongs to. Sampling
 * requests go to the page too (the person types the reply or declines); `roots`, when the person
 * chose any, are declared and answered as chosen.
 */
export function pageUI(
  broker: QuestionBroker,
  serverId: string,
  callOf: (context: AskContext) => string | undefined,
  roots: readonly RootChoice[] = [],
): ElicitationUI {
  const about = (context: AskContext) => {
    const callId = callOf(context);
    return { serverId, ...(callId !== undefined && { callId }), context: questionContext(context) };
  };
  /** The page each call's person last said they had finished (by the client's call id). */
  const saidFinished = new Map<number, string>();
  return {
    modes: { form: true, url: true },
    // The page (the renderer's form) shows every field with its default filled in.
    defaults: 'prefilled',
    async form(request, context) {
      const answer = await broker.ask(
        {
          mode: 'form',
          ...about(context),
          request: { message: request.message, requestedSchema: request.requestedSchema },
        },
        context.signal,
      );
      if (answer.action === 'accept') return { action: 'accept', content: answer.content ?? {} };
      return { action: answer.action === 'decline' ? 'decline' : 'cancel' };
    },
    async url(request, _inspection, context): Promise<UrlConsent> {
      // Asked again for the page the person just said they had finished: it was not answered yet.
      const notFinished = saidFinished.get(context.callId) === request.url;
      saidFinished.delete(context.callId);
      // The page inspects the URL itself, in the browser that will open it.
      const answer = await broker.ask(
        {
          mode: 'url',
          ...about(context),
          request: { message: request.message, url: request.url },
          ...(notFinished && { notFinished: true }),
        },
        context.signal,
      );
      if (answer.action === 'accept' || answer.action === 'decline') return { action: answer.action };
      return { action: 'cancel' };
    },
    async waitForUrl(request, _inspection, context) {
      const answer = await broker.ask(
        { mode: 'url-wait', ...about(context), request: { message: request.message, url: request.url } },
        context.signal,
      );
      if (answer.action !== 'finished') return 'cancel';
      saidFinished.set(context.callId, request.url);
      return 'finished';
    },
    async sampling(request, context) {
      const answer = await broker.ask(
        { mode: 'sampling', ...about(context), request: samplingView(request) },
        context.signal,
      );
      if (answer.action !== 'approve') return { action: 'decline' };
      return {
        role: 'assistant',
        content: { type: 'text', text: answer.reply },
        model: TYPED_REPLY_MODEL,
        stopReason: 'endTurn',
      };
    },
    ...(roots.length > 0 && {
      roots: async () => ({ roots: roots.map((root) => ({ ...root })) }),
    }),
  };
}
