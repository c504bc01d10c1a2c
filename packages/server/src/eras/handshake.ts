import { askPoint } from '../ask/ask-item.js';
import { isDeclared } from '../ask/kind-table.js';
import { type GuardRound, isInputRequired } from '../context/guard.js';
import { batchItems, type ContextFacts, createContext } from '../context/parley-context.js';
import { NotificationSequence } from '../context/side-channels.js';
import { RoundLimitError } from '../errors.js';
import { newCallId } from '../state/round-state.js';
import type { EraModule } from './era.js';
import { answeredGuardRound } from './guard-rounds.js';
import { PushEngine } from './push-engine.js';
import { NO_TASKS } from './task-start.js';

/**
 * The 2025 eras (2025-06-18, 2025-11-25): questions are requests over the session, and the handler
 * waits for their answers; the call's result is the handler's.
 */
export const handshakeEra: EraModule = {
  async run({ app, sdk, server, user, invoke, observe }) {
    const protocolVersion = server.getNegotiatedProtocolVersion() ?? '2025-06-18';
    const engine = new PushEngine(sdk, {
      maxTries: app.maxTries,
      maxRounds: app.maxRounds,
      questionTimeoutMs: app.questionTimeoutMs,
      protocolVersion,
      callId: newCallId(),
      notifyComplete: (elicitationId) =>
        server.createElicitationCompletionNotifier(elicitationId, { relatedRequestId: sdk.mcpReq.id })(),
      pending: app.pendingQuestions,
      once: app.once,
      ...(observe && {
        onAsk: (key: string) => observe.asked([key]),
        onAnswer: (key: string, action: 'accept' | 'decline' | 'cancel') => observe.answered({ key, action }),
      }),
    });
    const facts: ContextFacts = {
      era: 'handshake',
      protocolVersion,
      user,
      clientCapabilities: server.getClientCapabilities(),
      clientInfo: server.getClientVersion(),
      sdk,
      flows: app.flows,
      task: NO_TASKS,
    };
    // Guard style: the questions of `inputRequired()` are asked over the session, then the handler
    // runs again with their answers, in the same request (a 2025 client never sees input_required).
    // It runs from the top, so what its earlier runs sent is not sent again.
    let guard: GuardRound | undefined;
    let notifications = new NotificationSequence();
    for (let round = 1; ; round++) {
      const result = await invoke(
        createContext({ ...facts, ...(guard && { guard }), notifications }, engine),
      );
      if (!isInputRequired(result)) return result;
      notifications = new NotificationSequence(notifications.reached);
      if (round >= app.maxRounds) throw new RoundLimitError(app.maxRounds);
      const items = batchItems(result.questions, (kind) =>
        isDeclared(kind, facts.clientCapabilities, facts.protocolVersion),
      );
      const results = await engine.ask(askPoint(items, true));
      guard = answeredGuardRound(items, results, result.data);
    }
  },
};
