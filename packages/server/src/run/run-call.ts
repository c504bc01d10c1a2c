import {
  type AuthInfo,
  type InputRequiredResult,
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import { createContext } from '../context/parley-context.js';
import { PushEngine } from '../context/push-engine.js';
import { MalformedResponseError, ReplayEngine } from '../context/replay-engine.js';
import { ElicitationUnavailable } from '../errors.js';
import { bindingBytes, type StateBinding } from '../state/binding.js';
import { firstRoundState, newCallId, type RoundState } from '../state/round-state.js';
import { STATE_REFUSAL_EXPLANATIONS } from '../state/state-codec.js';
import type { ParleyContext } from '../types.js';

/** One logical call: what is being called, with which arguments. */
export interface CallSpec {
  readonly method: StateBinding['method'];
  readonly target: string;
  readonly args: unknown;
}

/** The era a serving unit was built for (the SDK's names). */
export type ServingEra = 'modern' | 'legacy';

/** What a handler's call learns from the connection it arrived on. */
export interface ServingUnit {
  /** The user a stdio connection acts for. */
  readonly localUser?: string | undefined;
  /** Auth info kept beside the request (the shared modern connection carries it out of band). */
  readonly authOf?: ((sdk: ServerContext) => AuthInfo | undefined) | undefined;
  /** Told when a request handler starts (the shared modern connection maps errors to HTTP statuses by it). */
  readonly onDispatch?: ((sdk: ServerContext) => void) | undefined;
}

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

/** The frozen wire error for any state that does not open: the reason goes to the log only. */
function invalidStateError(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
    reason: 'invalid_request_state',
  });
}

/**
 * Runs a handler for one request on either era. On 2026-07-28 it replays the journal in the
 * request's sealed state and ends the round with an InputRequiredResult at the first unanswered
 * question; on the 2025 eras questions go to the client over the session.
 */
export async function runCall<R>(
  app: App,
  era: ServingEra,
  sdk: ServerContext,
  sdkServer: Server,
  call: CallSpec,
  invoke: (ctx: ParleyContext) => Promise<R>,
  unit: ServingUnit,
): Promise<R | InputRequiredResult> {
  const authInfo = unit.authOf?.(sdk) ?? sdk.http?.authInfo;
  const principal = app.principalOf(authInfo) ?? unit.localUser;
  const user = principal === undefined ? undefined : { id: principal, ...(authInfo && { authInfo }) };
  if (era === 'legacy') {
    const protocolVersion = sdkServer.getNegotiatedProtocolVersion() ?? '2025-06-18';
    const engine = new PushEngine(sdk, {
      maxTries: app.maxTries,
      questionTimeoutMs: app.questionTimeoutMs,
      protocolVersion,
      callId: newCallId(),
      notifyComplete: (elicitationId) =>
        sdkServer.createElicitationCompletionNotifier(elicitationId, { relatedRequestId: sdk.mcpReq.id })(),
      pending: app.pendingQuestions,
      once: app.once,
    });
    const facts = {
      era: 'handshake' as const,
      protocolVersion,
      user,
      clientCapabilities: sdkServer.getClientCapabilities(),
      clientInfo: sdkServer.getClientVersion(),
      sdk,
      flows: app.flows,
    };
    return invoke(createContext(facts, engine));
  }

  const bindingFacts: StateBinding = {
    server: app.info.name,
    method: call.method,
    target: call.target,
    args: call.args,
    principal,
  };
  // The binding (canonical JSON of the arguments) is needed only when a state is opened or sealed:
  // a call that asks nothing never computes it.
  let binding: Uint8Array | undefined;
  const bindingOf = () => (binding ??= bindingBytes(bindingFacts));
  const state = await openState(app, sdk, bindingFacts, bindingOf);
  const dropped = sdk.mcpReq.droppedInputResponseKeys;
  if (dropped && dropped.length > 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid inputResponses: the values for ${dropped.map((key) => `'${key}'`).join(', ')} are not bare result ` +
        'objects (send the ElicitResult itself, e.g. { "action": "accept", "content": { ... } }).',
    );
  }
  const engine = new ReplayEngine(
    state,
    sdk.mcpReq.inputResponses,
    { maxRounds: app.maxRounds, maxTries: app.maxTries },
    app.once,
  );
  const envelope = (sdk.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const facts = {
    era: 'modern' as const,
    protocolVersion: String(envelope[PROTOCOL_VERSION_KEY] ?? '2026-07-28'),
    user,
    clientCapabilities: envelope[CLIENT_CAPABILITIES_KEY],
    clientInfo: envelope[CLIENT_INFO_KEY] as { name?: string; version?: string } | undefined,
    sdk,
    flows: app.flows,
  };

  let result: R | undefined;
  let failure: unknown;
  let failed = false;
  try {
    result = await invoke(createContext(facts, engine));
  } catch (error) {
    failed = true;
    failure = error;
  }
  // A suspension wins even if the handler caught the signal and returned or threw something else.
  const suspension = engine.suspension;
  if (suspension) {
    const codec = await app.codec();
    const requestState = await codec.seal(suspension.state, bindingOf());
    return inputRequired({ inputRequests: suspension.inputRequests, requestState });
  }
  if (!failed) return result as R;
  if (failure instanceof MalformedResponseError)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, failure.message);
  if (failure instanceof ElicitationUnavailable) {
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: failure.requiredCapabilities },
      failure.message,
    );
  }
  throw failure;
}

async function openState(
  app: App,
  sdk: ServerContext,
  call: StateBinding,
  binding: () => Uint8Array,
): Promise<RoundState> {
  const raw = sdk.mcpReq.requestState<unknown>();
  if (raw === undefined) return firstRoundState();
  const codec = await app.codec();
  const opened = await codec.open(raw, binding());
  if (opened.ok) return opened.state;
  app.log(
    'warn',
    `Refused requestState for ${call.method} ${JSON.stringify(call.target)}: ${STATE_REFUSAL_EXPLANATIONS[opened.reason]}.`,
    {
      reason: opened.reason,
    },
  );
  throw invalidStateError();
}
