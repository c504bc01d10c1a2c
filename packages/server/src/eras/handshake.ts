import { askPoint } from '../ask/ask-item.js';
import { isDeclared } from '../ask/kind-table.js';
import { type InputRequired, isInputRequired } from '../context/guard.js';
import { batchItems, type ContextFacts, createContext } from '../context/parley-context.js';
import { NotificationSequence } from '../context/side-channels.js';
import { RoundLimitError } from '../errors.js';
import { newCallId } from '../state/round-state.js';
import type { EraCall, EraModule } from './era.js';
import { answeredGuardRound } from './guard-rounds.js';
import { PushEngine } from './push-engine.js';
import { NO_TASKS } from './task-start.js';

/**
 * The 2025 eras (2025-06-18, 2025-11-25): questions are requests over the session, and the handler
 * waits for their answers; the call's result is the handler's.
 *
 * Written as a chain of promises, not an `await` loop: a 2025-era call waits on the person for as
 * long as they take, and a suspended async frame per pending call is memory.
 */
export const handshakeEra: EraModule = {
  run<R>(call: EraCall<R>): Promise<R> {
    try {
      const { server } = call;
      const protocolVersion = server.getNegotiatedProtocolVersion() ?? '2025-06-18';
      const engine = new PushEngine(call, protocolVersion, newCallId());
      const first = handshakeFacts(
        call,
        protocolVersion,
        server.getClientCapabilities(),
        server.getClientVersion(),
      );
      return runRound(call, engine, first, 1);
    } catch (error) {
      return Promise.reject(error);
    }
  },
};

/** The facts of the first run of the handler. */
function handshakeFacts<R>(
  call: EraCall<R>,
  protocolVersion: string,
  clientCapabilities: unknown,
  clientInfo: ContextFacts['clientInfo'],
): ContextFacts {
  // One literal (no spreads): an object built by spreading gets a hidden class of its own.
  return {
    era: 'handshake',
    protocolVersion,
    user: call.user,
    clientCapabilities,
    clientInfo,
    sdk: call.sdk,
    flows: call.app.flows,
    task: NO_TASKS,
    guard: undefined,
    notifications: new NotificationSequence(),
  };
}

/** Runs the handler once; a guard-style `inputRequired()` leads to the next round. */
function runRound<R>(call: EraCall<R>, engine: PushEngine, facts: ContextFacts, round: number): Promise<R> {
  return call
    .invoke(createContext(facts, engine))
    .then((result) => (isInputRequired(result) ? askGuard(call, engine, facts, round, result) : result));
}

/**
 * Guard style: the questions of `inputRequired()` are asked over the session, then the handler
 * runs again with their answers, in the same request (a 2025 client never sees input_required).
 * It runs from the top, so what its earlier runs sent is not sent again.
 */
function askGuard<R>(
  call: EraCall<R>,
  engine: PushEngine,
  facts: ContextFacts,
  round: number,
  asked: InputRequired,
): Promise<R> {
  const { maxRounds } = call.app;
  const notifications = new NotificationSequence(facts.notifications?.reached);
  if (round >= maxRounds) throw new RoundLimitError(maxRounds);
  const items = batchItems(asked.questions, (kind) =>
    isDeclared(kind, facts.clientCapabilities, facts.protocolVersion),
  );
  return engine.ask(askPoint(items, true)).then((results) => {
    const next: ContextFacts = {
      era: 'handshake',
      protocolVersion: facts.protocolVersion,
      user: facts.user,
      clientCapabilities: facts.clientCapabilities,
      clientInfo: facts.clientInfo,
      sdk: facts.sdk,
      flows: facts.flows,
      task: NO_TASKS,
      guard: answeredGuardRound(items, results, asked.data),
      notifications,
    };
    return runRound(call, engine, next, round + 1);
  });
}
