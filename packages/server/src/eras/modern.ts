import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type InputRequiredResult,
  inputRequired,
  MissingRequiredClientCapabilityError,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { elicitationModes } from '@parley/core/capabilities';
import { CallSecrets } from '../ask/call-secrets.js';
import { isDeclared } from '../ask/kind-table.js';
import { batchItems, createContext } from '../context/parley-context.js';
import { NotificationSequence } from '../context/side-channels.js';
import { ElicitationUnavailable } from '../errors.js';
import { isInputRequired } from '../input-required.js';
import { carriesResumeTokens, resumeTokenIn } from '../pages/parked-calls.js';
import type { CallRequest } from '../request/call-request.js';
import { firstRoundState, type RoundState, withNotified } from '../state/round-state.js';
import { INVALID_STATE, STATE_REFUSAL_EXPLANATIONS } from '../state/state-codec.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { CallBinding } from './call-binding.js';
import {
  type CreateTaskResult,
  createTaskResult,
  type EraCall,
  type EraModule,
  type TaskCall,
} from './era.js';
import { guardSuspension, type ModernGuardRound, modernGuardRound } from './guard-rounds.js';
import { type AnonymousFinder, parkCall, resumeParked } from './park-call.js';
import { MalformedResponseError, ReplayEngine, type Suspension } from './replay-engine.js';
import { type CallClient, RunFacts } from './run-facts.js';
import { EngineSwitch, NO_TASK_MODE, TaskStarter } from './task-start.js';

/**
 * The 2026-07-28 era: every request is a round. The module opens the request's sealed state,
 * replays the handler's journal, and ends the round with an InputRequiredResult (and a newly sealed
 * state) at the first question that has no answer yet.
 */
export const modernEra: EraModule = {
  async run(request, call, observe, task) {
    const modern = new ModernCall(request, call);
    const start = await modern.startingPoint();
    observe?.round(start.state.rounds + 1);
    refuseDroppedResponses(request.sdk);
    const round = new ModernRound(modern, call, start.state, task);
    const first = await round.firstOutcome();
    if ('record' in first) return round.becomeTask(first.record);
    let ending: Outcome<unknown> = first;
    let suspension: Suspension | undefined;
    try {
      suspension = round.suspensionAfter(first);
    } catch (error) {
      ending = { error };
    }
    if (suspension) return round.suspend(suspension, start);
    return round.finish(ending);
  },
};

/** What a handler's run ended with. */
type Outcome<R> = { readonly value: R } | { readonly error: unknown };

/** Where a round starts. */
interface StartingPoint {
  readonly state: RoundState;
  /** Whether it goes on from a call parked earlier. */
  readonly resumed: boolean;
  /** Digests of the links a parked call's results carried before (it was resumed by address). */
  readonly shown?: readonly string[] | undefined;
}

/**
 * One 2026-07-28 request's call as the era reads it from the request: its client (from the `_meta`
 * envelope), how its caller is found again when it is anonymous, and its binding. One object per
 * request.
 *
 * A client that cannot open URLs gets a page's link in a result and makes the same call again (with
 * no state) once the person answered, its parked state on the server. An anonymous caller's call is
 * found by the resume token it carries back (never by its address, which others may share), or by
 * its address only where the author said so and only for a client that carries no token back.
 */
class ModernCall implements CallClient, AnonymousFinder {
  readonly protocolVersion: string;
  readonly clientCapabilities: unknown;
  readonly clientInfo: CallClient['clientInfo'];
  readonly host: CallClient['host'];
  /** An anonymous caller over HTTP. */
  readonly anonymous: boolean;
  /** Whether its client carries resume tokens back. */
  readonly carriesTokens: boolean;
  /** The resume token the request carried (an anonymous caller's). */
  readonly resume: string | undefined;
  /** The caller's address, where its parked calls are found by address. */
  readonly address: string | undefined;
  readonly binding: CallBinding;

  constructor(
    readonly request: CallRequest,
    call: EraCall<unknown>,
  ) {
    const envelope = (request.sdk.mcpReq.envelope ?? {}) as Record<string, unknown>;
    this.protocolVersion = String(envelope[PROTOCOL_VERSION_META_KEY] ?? '2026-07-28');
    this.clientCapabilities = envelope[CLIENT_CAPABILITIES_META_KEY];
    this.clientInfo = envelope[CLIENT_INFO_META_KEY] as CallClient['clientInfo'];
    this.host = request.app.hosts.of(this.clientInfo, this.protocolVersion);
    const anonymous = !request.user && request.transport === 'http';
    this.anonymous = anonymous;
    this.carriesTokens = anonymous && carriesResumeTokens(this.clientCapabilities);
    this.resume = anonymous ? resumeTokenIn(request.sdk.mcpReq._meta) : undefined;
    const byAddress = anonymous && !this.carriesTokens && request.app.pages?.anonymousByAddress;
    this.address = byAddress ? request.caller : undefined;
    this.binding = new CallBinding(request, call.spec);
  }

  /** Whether a call parked now could be told from another caller's (see `PageCallFacts.resumable`). */
  get resumable(): boolean {
    return !this.anonymous || this.carriesTokens || this.address !== undefined;
  }

  /**
   * Where the round starts: the state the request carries (any failure to open it is the same frozen
   * error; the reason goes to the log), else a call parked earlier, else a first round.
   */
  async startingPoint(): Promise<StartingPoint> {
    const { app, sdk } = this.request;
    const raw = sdk.mcpReq.requestState<unknown>();
    if (raw !== undefined) {
      const codec = await app.codec();
      const opened = await codec.open(raw, this.binding.bytes());
      if (opened.ok) return { state: opened.state, resumed: false };
      const { method, target } = this.binding.facts;
      const why = STATE_REFUSAL_EXPLANATIONS[opened.reason];
      app.log('warn', `Refused requestState for ${method} ${JSON.stringify(target)}: ${why}.`, {
        reason: opened.reason,
      });
      throw invalidStateError();
    }
    const opensUrls =
      elicitationModes(this.clientCapabilities, this.protocolVersion).url &&
      (this.host?.opensPages(true) ?? true);
    // Only a client that cannot open URLs has its calls parked (when anything could be parked at all).
    if (app.pages?.mayHoldParked !== true || opensUrls) return { state: firstRoundState(), resumed: false };
    const resumed = await resumeParked(this.request, app.pages, this.binding, this);
    return resumed
      ? { state: resumed.state, shown: resumed.shown, resumed: true }
      : { state: firstRoundState(), resumed: false };
  }
}

/** The frozen wire error for any state that does not open: the reason goes to the log only. */
function invalidStateError(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, INVALID_STATE.message, INVALID_STATE.data);
}

/** Answers the SDK could not read as bare results: refused, with what to send instead. */
function refuseDroppedResponses(sdk: ServerContext): void {
  const dropped = sdk.mcpReq.droppedInputResponseKeys;
  if (!dropped || dropped.length === 0) return;
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid inputResponses: the values for ${dropped.map((key) => `'${key}'`).join(', ')} are not bare result ` +
      'objects (send the ElicitResult itself, e.g. { "action": "accept", "content": { ... } }).',
  );
}

/** The error a failed round answers the request with: a client's malformed answer, a missing mode. */
function wireError(failure: unknown): unknown {
  if (failure instanceof MalformedResponseError)
    return new ProtocolError(ProtocolErrorCode.InvalidParams, failure.message);
  if (failure instanceof ElicitationUnavailable)
    return new MissingRequiredClientCapabilityError(
      { requiredCapabilities: failure.requiredCapabilities },
      failure.message,
    );
  return failure;
}

/** One 2026-07-28 round of a call: the handler's run from the top, against the journal of its state. */
class ModernRound<R> {
  readonly #modern: ModernCall;
  readonly #replay: ReplayEngine;
  /** How the call becomes a task, for a tool with a task mode. */
  readonly #starter: TaskStarter | undefined;
  readonly #guard: ModernGuardRound;
  readonly #facts: RunFacts;
  readonly #task: TaskCall<R> | undefined;
  readonly #running: Promise<Outcome<R>>;

  constructor(modern: ModernCall, call: EraCall<R>, state: RoundState, task: TaskCall<R> | undefined) {
    const { request } = modern;
    const { app, sdk, user } = request;
    this.#modern = modern;
    this.#task = task;
    // The app's maxRounds and maxTries are the replay's limits.
    this.#replay = new ReplayEngine(state, sdk.mcpReq.inputResponses, app, app.once);
    // Only a tool with a task mode can become a task: the engine it asks through then switches.
    const engine = task?.mode ? new EngineSwitch(this.#replay) : this.#replay;
    this.#starter =
      engine instanceof EngineSwitch
        ? new TaskStarter({
            app,
            mode: task?.mode,
            clientCapabilities: modern.clientCapabilities,
            principal: user?.id,
            caller: request.caller,
            engine,
            callId: state.callId,
            tool: call.spec.target,
          })
        : undefined;
    this.#guard = modernGuardRound(state, sdk.mcpReq.inputResponses ?? {});
    this.#facts = new RunFacts(
      request,
      call,
      modern,
      this.#starter ?? NO_TASK_MODE,
      new CallSecrets(),
      // An anonymous caller's pages count against its address: a budget bucket, not an identity.
      user ? undefined : request.caller,
      modern.resumable,
      this.#guard,
      // Every round runs the handler from the top: what earlier rounds sent is not sent again.
      new NotificationSequence(state.notified),
    );
    this.#running = call.handler(createContext(this.#facts, engine)).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  }

  /**
   * What the handler ended with, or the task the call became first: then the request is answered
   * with the task and the handler goes on, its outcome recorded on the task. (A tool with no task
   * mode never becomes one: no race to set up on every round.)
   */
  firstOutcome(): Promise<Outcome<R> | { readonly record: TaskRecord }> {
    if (!this.#starter) return this.#running;
    return Promise.race([this.#running, this.#starter.detached.then((record) => ({ record }))]);
  }

  /** Answers the request with the task the call became; the handler's outcome settles it later. */
  becomeTask(record: TaskRecord): CreateTaskResult {
    const task = this.#task!;
    void this.#running.then(async (outcome) => {
      await this.#facts.secrets.erase(this.#modern.request.app.pages);
      await task.settle(record, outcome);
    });
    return createTaskResult(record);
  }

  /**
   * Where the round stops to ask: at a question the journal has no answer for, or at a guard-style
   * `inputRequired()` the handler returned. A suspension wins even if the handler caught the signal
   * and returned or threw something else. Throws when a guard round cannot be asked.
   */
  suspensionAfter(outcome: Outcome<R>): Suspension | undefined {
    if (this.#replay.suspension) return this.#replay.suspension;
    if ('error' in outcome || !isInputRequired(outcome.value)) return undefined;
    const asked = outcome.value;
    const { clientCapabilities, protocolVersion, host } = this.#facts;
    const items = batchItems(
      asked.questions,
      (kind) => isDeclared(kind, clientCapabilities, protocolVersion),
      host,
    );
    const { maxRounds } = this.#modern.request.app;
    return guardSuspension(this.#replay.stateSoFar(), items, asked.data, this.#guard, maxRounds);
  }

  /**
   * Ends the round at its questions: an InputRequiredResult carrying the sealed state, or (questions
   * only on pages answered by link, for a client that shows none of them) the call parked there.
   */
  async suspend(suspension: Suspension, start: StartingPoint): Promise<InputRequiredResult> {
    const { request, binding } = this.#modern;
    const sealed = withNotified(suspension.state, this.#facts.notifications!.reached);
    const asks = Object.keys(suspension.inputRequests).length > 0;
    // A batch that mixes questions this client shows with questions on pages answered by link: the
    // client's go first (a result that parks the call cannot carry questions), the links in the
    // round after.
    if (suspension.outOfBand.length > 0 && !asks) {
      // A token that resumed nothing is not the client's to keep: a parked call gets a new one.
      const modern = this.#modern;
      const parker = { resume: start.resumed ? modern.resume : undefined, address: modern.address };
      const parked = {
        state: sealed,
        items: suspension.outOfBand,
        formsFailed: false,
        urlFailed: false,
        shown: start.shown,
      };
      return parkCall(request, request.app.pages!, binding, parked, parker) as never;
    }
    const codec = await request.app.codec();
    const requestState = await codec.seal(sealed, binding.bytes());
    // A round that asks nothing (ctx.yieldRound) carries only its state: the client retries at once.
    return inputRequired(asks ? { inputRequests: suspension.inputRequests, requestState } : { requestState });
  }

  /**
   * Ends the call with what the handler ended with: its value, or its failure as the wire says it,
   * once the call's secret answers are erased (no promise for a call that had none).
   */
  finish(outcome: Outcome<unknown>): R | Promise<R> {
    const { secrets } = this.#facts;
    if (!secrets.held) return endedWith<R>(outcome);
    return secrets.erase(this.#modern.request.app.pages).then(() => endedWith<R>(outcome));
  }
}

/** The value an outcome ends the call with, or its failure thrown as the wire says it. */
function endedWith<R>(outcome: Outcome<unknown>): R {
  if ('error' in outcome) throw wireError(outcome.error);
  return outcome.value as R;
}
