import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  inputRequired,
  MissingRequiredClientCapabilityError,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { elicitationModes } from '@parley/core/capabilities';
import type { App } from '../app.js';
import { CallSecrets } from '../ask/call-secrets.js';
import { isDeclared } from '../ask/kind-table.js';
import { batchItems, type ContextFacts, createContext } from '../context/parley-context.js';
import { NotificationSequence } from '../context/side-channels.js';
import { ElicitationUnavailable } from '../errors.js';
import { isInputRequired } from '../input-required.js';
import { carriesResumeTokens, resumeTokenIn } from '../pages/parked-calls.js';
import { bindingBytes, type StateBinding } from '../state/binding.js';
import { firstRoundState, type RoundState, withNotified } from '../state/round-state.js';
import { STATE_REFUSAL_EXPLANATIONS } from '../state/state-codec.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { createTaskResult, type EraModule } from './era.js';
import { guardSuspension, modernGuardRound } from './guard-rounds.js';
import { parkCall, resumeParked } from './park-call.js';
import { MalformedResponseError, ReplayEngine, type Suspension } from './replay-engine.js';
import { EngineSwitch, TaskStarter } from './task-start.js';

/**
 * The 2026-07-28 era: every request is a round. The module opens the request's sealed state,
 * replays the handler's journal, and ends the round with an InputRequiredResult (and a newly sealed
 * state) at the first question that has no answer yet.
 */
export const modernEra: EraModule = {
  async run({ app, sdk, call, user, caller, transport, runs, observe, task }) {
    const bindingFacts: StateBinding = {
      server: app.info.name,
      method: call.method,
      target: call.target,
      args: call.args,
      principal: user?.id,
    };
    // The binding (canonical JSON of the arguments) is needed only when a state is opened or sealed:
    // a call that asks nothing never computes it.
    let binding: Uint8Array | undefined;
    const bindingOf = () => (binding ??= bindingBytes(bindingFacts));
    const envelope = (sdk.mcpReq.envelope ?? {}) as Record<string, unknown>;
    const clientCapabilities = envelope[CLIENT_CAPABILITIES_META_KEY];
    const protocolVersion = String(envelope[PROTOCOL_VERSION_META_KEY] ?? '2026-07-28');
    // A client that cannot open URLs gets a page's link in a result, and makes the same call again
    // (with no state) once the person answered: its parked state is on the server (when anything
    // could be parked at all). An anonymous caller's is found by the resume token it carries back
    // (never by its address, which others may share).
    const clientInfo = envelope[CLIENT_INFO_META_KEY] as { name?: string; version?: string } | undefined;
    const host = app.hosts.of(clientInfo, protocolVersion);
    const opensUrls =
      elicitationModes(clientCapabilities, protocolVersion).url && (host?.opensPages(true) ?? true);
    const anonymous = !user && transport === 'http';
    const carriesTokens = anonymous && carriesResumeTokens(clientCapabilities);
    const token = anonymous ? resumeTokenIn(sdk.mcpReq._meta) : undefined;
    // Only where the author said so, and only for a client that carries no token back.
    const address = anonymous && !carriesTokens && app.pages?.anonymousByAddress ? caller : undefined;
    const parkable = app.pages?.mayHoldParked === true && !opensUrls;
    const opened = await openState(app, sdk, bindingFacts, bindingOf);
    const finder = { user, transport, resume: token, address };
    const resumed =
      opened === undefined && parkable
        ? await resumeParked(app, app.pages!, bindingFacts, finder, bindingOf())
        : undefined;
    // A token that resumed nothing is not the client's to keep: a parked call gets a new one.
    const parker = { user, transport, resume: resumed ? token : undefined, address };
    const state = opened ?? resumed?.state ?? firstRoundState();
    observe?.round(state.rounds + 1);
    const dropped = sdk.mcpReq.droppedInputResponseKeys;
    if (dropped && dropped.length > 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid inputResponses: the values for ${dropped.map((key) => `'${key}'`).join(', ')} are not bare result ` +
          'objects (send the ElicitResult itself, e.g. { "action": "accept", "content": { ... } }).',
      );
    }
    const replay = new ReplayEngine(
      state,
      sdk.mcpReq.inputResponses,
      { maxRounds: app.maxRounds, maxTries: app.maxTries },
      app.once,
    );
    const engine = new EngineSwitch(replay);
    const starter = new TaskStarter({
      app,
      mode: task?.mode,
      clientCapabilities,
      principal: user?.id,
      caller,
      engine,
      callId: state.callId,
      tool: call.target,
    });
    const secrets = new CallSecrets();
    const guard = modernGuardRound(state, sdk.mcpReq.inputResponses ?? {});
    // Every round runs the handler from the top: what earlier rounds sent is not sent again.
    const notifications = new NotificationSequence(state.notified);
    const facts: ContextFacts = {
      era: 'modern',
      protocolVersion,
      user,
      clientCapabilities,
      clientInfo,
      host,
      sdk,
      flows: app.flows,
      task: starter,
      transport,
      pages: app.pages,
      call,
      secrets,
      // An anonymous caller's pages count against its address: a budget bucket, not an identity.
      anonymousScope: user ? undefined : caller,
      resumable: !anonymous || carriesTokens || address !== undefined,
      guard,
      notifications,
    };

    type Outcome = { readonly value: Awaited<ReturnType<typeof runs.handler>> } | { readonly error: unknown };
    type Value = Awaited<ReturnType<typeof runs.handler>>;
    const running: Promise<Outcome> = runs.handler(createContext(facts, engine)).then(
      (value) => ({ value: value as Value }),
      (error: unknown) => ({ error }),
    );
    // The call ends when the handler does, or earlier, when it becomes a task: then the request is
    // answered with the task and the handler goes on, its outcome recorded on the task. (A tool with
    // no task mode never becomes one: no race to set up on every round.)
    const first: Outcome | { readonly record: TaskRecord } = task?.mode
      ? await Promise.race([running, starter.detached.then((record) => ({ record }))])
      : await running;
    if ('record' in first) {
      void running.then(async (outcome) => {
        await secrets.erase(app.pages);
        await task?.settle(first.record, outcome as never);
      });
      return createTaskResult(first.record);
    }
    let failed = 'error' in first;
    let failure = 'error' in first ? first.error : undefined;
    const result = 'error' in first ? undefined : first.value;
    let guardAsk: Suspension | undefined;
    if (!failed && isInputRequired(result)) {
      try {
        const items = batchItems(
          result.questions,
          (kind) => isDeclared(kind, facts.clientCapabilities, facts.protocolVersion),
          facts.host,
        );
        guardAsk = guardSuspension(replay.stateSoFar(), items, result.data, guard, app.maxRounds);
      } catch (error) {
        failed = true;
        failure = error;
      }
    }
    // A suspension wins even if the handler caught the signal and returned or threw something else.
    const suspension = replay.suspension ?? (failed ? undefined : guardAsk);
    if (suspension) {
      const sealed = withNotified(suspension.state, notifications.reached);
      const asks = Object.keys(suspension.inputRequests).length > 0;
      // A batch that mixes questions this client shows with questions on pages answered by link:
      // the client's go first (a result that parks the call cannot carry questions), the links in
      // the round after.
      if (suspension.outOfBand.length > 0 && !asks) {
        const parked = {
          state: sealed,
          items: suspension.outOfBand,
          formsFailed: false,
          urlFailed: false,
          shown: resumed?.shown,
        };
        return parkCall(app, app.pages!, bindingFacts, parker, parked) as never;
      }
      const codec = await app.codec();
      const requestState = await codec.seal(sealed, bindingOf());
      // A round that asks nothing (ctx.yieldRound) carries only its state: the client retries at once.
      return inputRequired(
        asks ? { inputRequests: suspension.inputRequests, requestState } : { requestState },
      );
    }
    await secrets.erase(app.pages);
    if (!failed) return result!;
    if (failure instanceof MalformedResponseError)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, failure.message);
    if (failure instanceof ElicitationUnavailable) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: failure.requiredCapabilities },
        failure.message,
      );
    }
    throw failure;
  },
};

/** The frozen wire error for any state that does not open: the reason goes to the log only. */
function invalidStateError(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
    reason: 'invalid_request_state',
  });
}

/** The state the request carries, opened; `undefined` when it carries none. */
async function openState(
  app: App,
  sdk: ServerContext,
  call: StateBinding,
  binding: () => Uint8Array,
): Promise<RoundState | undefined> {
  const raw = sdk.mcpReq.requestState<unknown>();
  if (raw === undefined) return undefined;
  const codec = await app.codec();
  const opened = await codec.open(raw, binding());
  if (opened.ok) return opened.state;
  app.log(
    'warn',
    `Refused requestState for ${call.method} ${JSON.stringify(call.target)}: ${STATE_REFUSAL_EXPLANATIONS[opened.reason]}.`,
    { reason: opened.reason },
  );
  throw invalidStateError();
}
