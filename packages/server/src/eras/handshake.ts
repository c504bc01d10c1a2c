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
  async run(call) {
    const { app, server, invoke } = call;
    const protocolVersion = server.getNegotiatedProtocolVersion() ?? '2025-06-18';
    const engine = new PushEngine(call, protocolVersion, newCallId());
    const clientCapabilities = server.getClientCapabilities();
    const clientInfo = server.getClientVersion();
    // Guard style: the questions of `inputRequired()` are asked over the session, then the handler
    // runs again with their answers, in the same request (a 2025 client never sees input_required).
    // It runs from the top, so what its earlier runs sent is not sent again.
    let guard: GuardRound | undefined;
    let notifications = new NotificationSequence();
    for (let round = 1; ; round++) {
      // One literal (no spreads): an object built by spreading gets a hidden class of its own.
      const facts: ContextFacts = {
        era: 'handshake',
        protocolVersion,
        user: call.user,
        clientCapabilities,
        clientInfo,
        sdk: call.sdk,
        flows: app.flows,
        task: NO_TASKS,
        guard,
        notifications,
      };
      const result = await invoke(createContext(facts, engine));
      if (!isInputRequired(result)) return result;
      notifications = new NotificationSequence(notifications.reached);
      if (round >= app.maxRounds) throw new RoundLimitError(app.maxRounds);
      const items = batchItems(result.questions, (kind) =>
        isDeclared(kind, clientCapabilities, protocolVersion),
      );
      const results = await engine.ask(askPoint(items, true));
      guard = answeredGuardRound(items, results, result.data);
    }
  },
};
