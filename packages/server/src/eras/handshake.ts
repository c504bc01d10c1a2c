import { type ContextFacts, createContext } from '../context/parley-context.js';
import { newCallId } from '../state/round-state.js';
import type { EraModule } from './era.js';
import { PushEngine } from './push-engine.js';

/**
 * The 2025 eras (2025-06-18, 2025-11-25): questions are requests over the session, and the handler
 * waits for their answers; the call's result is the handler's.
 */
export const handshakeEra: EraModule = {
  async run({ app, sdk, server, user, invoke }) {
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
    });
    const facts: ContextFacts = {
      era: 'handshake',
      protocolVersion,
      user,
      clientCapabilities: server.getClientCapabilities(),
      clientInfo: server.getClientVersion(),
      sdk,
      flows: app.flows,
    };
    return invoke(createContext(facts, engine));
  },
};
