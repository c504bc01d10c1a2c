import {
  type AuthInfo,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type JSONRPCNotification,
  type JSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  type Result,
  SERVER_INFO_META_KEY,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isRecord } from '@parley/core';
import type { App } from '../app.js';
import { isDeclared } from '../ask/kind-table.js';
import type { DirectToolCall, DirectToolCalls } from '../direct-call-types.js';
import { AuthorError, CallCancelledError } from '../errors.js';
import { INVALID_PARAMS, rpcError } from '../http/rpc-error.js';
import type { RoundObserver } from '../middleware.js';
import { report } from '../run/failure-report.js';
import { type ChainSubject, runChain } from '../run/middleware-chain.js';
import { failedToolResult } from '../run/results.js';
import { bindingBytes, DIRECT_PURPOSE } from '../state/binding.js';
import type { Json } from '../state/round-state.js';
import { INVALID_STATE } from '../state/state-codec.js';
import type { Principal } from '../types.js';
import type { ExchangeSink } from './modern-mux.js';

/** What a direct call's `requestState` starts with: no state of Parley's own does (base64url has no `.`). */
const DIRECT_PREFIX = 'd.';

/** What the endpoint hands over with a call: who sent it, and where its answer goes. */
export interface DirectEdge {
  /** The verified caller, and the auth info it was read from. */
  readonly principal: string | undefined;
  readonly authInfo: AuthInfo | undefined;
  readonly sink: ExchangeSink;
  readonly onAbort: (listener: () => void) => void;
  /**
   * Serves a request through Parley's own path, its answer to `sink`, middleware skipped (it ran
   * around the direct call already).
   */
  readonly serveAsUsual: (message: JSONRPCRequest, sink: ExchangeSink) => void;
}

/** One offered call, as the endpoint hands it over. */
interface Offered extends DirectEdge {
  readonly app: App;
  readonly handler: DirectToolCalls;
  readonly message: JSONRPCRequest;
  readonly params: Record<string, unknown>;
  readonly name: string;
  /** What its state is sealed to (see `bindingBytes`), worked out when a state is opened or sealed. */
  binding(): Uint8Array;
}

/**
 * Offers a 2026-07-28 `tools/call` to the server's direct handler. Returns false (nothing sent)
 * when the call is not for it: no handler, a middleware registered that is not marked
 * `directCalls` (it must see every call, and would read the SDK's context), or a `requestState` of
 * Parley's own. A state of the handler's that does not open is refused as Parley refuses its own.
 */
export function offerDirectCall(app: App, message: JSONRPCRequest, edge: DirectEdge): boolean {
  const handler = app.directToolCalls;
  if (handler === undefined || !app.middleware.every((one) => one.directCalls === true)) return false;
  const params = (message.params ?? {}) as Record<string, unknown>;
  const token = params.requestState;
  if (token !== undefined && !(typeof token === 'string' && token.startsWith(DIRECT_PREFIX))) return false;
  const name = params.name;
  if (typeof name !== 'string') return false;
  let bytes: Uint8Array | undefined;
  const binding = () => {
    const facts = {
      server: app.info.name,
      method: 'tools/call' as const,
      target: name,
      principal: edge.principal,
    };
    bytes ??= bindingBytes({ ...facts, args: params.arguments ?? {} }, DIRECT_PURPOSE);
    return bytes;
  };
  const offered: Offered = { ...edge, app, handler, message, params, name, binding };
  const served =
    app.middleware.length === 0
      ? directResult(offered, IGNORE_ROUNDS)
      : runChain(new DirectSubject(offered), (observe) => directResult(offered, observe));
  served
    .then(
      (result) => edge.sink.finish({ jsonrpc: '2.0', id: message.id, result } as never, false),
      (error: unknown) => edge.sink.finish(errorAnswer(offered, error) as never, beforeDispatch(error)),
    )
    .catch((error: unknown) =>
      app.log('error', `direct tool call: ${error instanceof Error ? error.message : String(error)}`),
    );
  return true;
}

/**
 * The call's result: the handler's outcome, or what Parley's own path answered when the handler
 * handed the call back. A JSON-RPC error is thrown as a `ProtocolError`, as a call the SDK serves
 * throws it through the middleware chain.
 */
async function directResult(offered: Offered, observe: RoundObserver): Promise<Result> {
  const { app, message, params } = offered;
  const codec = await app.codec();
  let state: Json | undefined;
  let round = 1;
  if (typeof params.requestState === 'string') {
    const opened = await codec.openJson(params.requestState.slice(DIRECT_PREFIX.length), offered.binding());
    const sealed = opened.ok ? opened.state : undefined;
    if (!Array.isArray(sealed) || sealed.length !== 2 || typeof sealed[0] !== 'number') {
      const name = JSON.stringify(offered.name.slice(0, 64));
      const why = opened.ok ? 'not a direct call’s state' : opened.reason;
      app.log('info', `direct tool call ${name}: requestState refused (${why})`);
      throw new ProtocolError(INVALID_PARAMS, INVALID_STATE.message, INVALID_STATE.data);
    }
    round = sealed[0] + 1;
    state = sealed[1];
    observe.round(round);
  }
  const outcome = await offered.handler(directCall(offered, state));
  // Not the handler's: served as it came (a state of the handler's then fails to open as Parley's).
  if (outcome === undefined) return servedAsUsual(offered, message);
  if ('serve' in outcome) {
    const { requestState: _state, inputResponses: _answers, ...fresh } = params;
    const meta = { ...(isRecord(params._meta) ? params._meta : {}), ...(outcome.serve.meta ?? {}) };
    return servedAsUsual(offered, { ...message, params: { ...fresh, _meta: meta } });
  }
  if ('error' in outcome) {
    const { code, message: text, data } = outcome.error;
    throw new ProtocolError(code, text, data);
  }
  if ('result' in outcome) return completed(app, outcome.result);
  const requestState = DIRECT_PREFIX + (await codec.sealJson([round, outcome.state], offered.binding()));
  return {
    resultType: 'input_required',
    ...(outcome.inputRequests !== undefined && { inputRequests: outcome.inputRequests }),
    requestState,
    _meta: { [SERVER_INFO_META_KEY]: app.info },
  } as Result;
}

/** A JSON-RPC error Parley's own path answered, thrown with whether it came before dispatch (its HTTP status). */
class ServedError extends ProtocolError {
  constructor(
    error: { readonly code: number; readonly message: string; readonly data?: unknown },
    readonly beforeDispatch: boolean,
  ) {
    super(error.code, error.message, error.data);
  }
}

/** What Parley's own path answers `message`: its notifications go to the call's response as they come. */
function servedAsUsual(offered: Offered, message: JSONRPCRequest): Promise<Result> {
  return new Promise((resolve, reject) => {
    // Parley's path ends a call its client left without an answer: the chain around it ends here.
    offered.onAbort(() => reject(new CallCancelledError('the client went away')));
    offered.serveAsUsual(message, {
      notify: (notification) => offered.sink.notify(notification),
      finish: (response, beforeDispatch) =>
        'error' in response
          ? reject(new ServedError(response.error, beforeDispatch))
          : resolve(response.result),
    });
  });
}

function beforeDispatch(error: unknown): boolean {
  return error instanceof ServedError && error.beforeDispatch;
}

/**
 * What a failed direct call answers, by the one error policy of every call (`report`): a
 * `ProtocolError` as itself; anything else as a tool's failure is answered, an error result
 * (`isError`) saying what a `CallEndingError` says, or an internal error with a reference.
 */
function errorAnswer(offered: Offered, error: unknown) {
  const { app, message } = offered;
  if (error instanceof ProtocolError) return rpcError(message.id, error.code, error.message, error.data);
  const said = report(app, error, `tools/call ${JSON.stringify(offered.name.slice(0, 64))}`);
  return { jsonrpc: '2.0', id: message.id, result: completed(app, failedToolResult(said)) };
}

/** A result as the endpoint sends it: complete, and named by the server. */
function completed(app: App, result: Record<string, unknown>): Result {
  const meta = isRecord(result._meta) ? result._meta : {};
  return {
    ...result,
    resultType: 'complete',
    _meta: { ...meta, [SERVER_INFO_META_KEY]: app.info },
  } as Result;
}

const IGNORE_ROUNDS: RoundObserver = { round: () => {}, asked: () => {}, answered: () => {} };

/** A direct call as the middleware chain reads it: a 2026-07-28 `tools/call` the SDK does not serve. */
class DirectSubject implements ChainSubject {
  readonly internal = false;
  readonly method = 'tools/call';
  readonly era = 'modern';
  readonly user: Principal | undefined;
  readonly params: Record<string, unknown>;
  readonly app: App;

  constructor(offered: Offered) {
    const { principal, authInfo } = offered;
    this.app = offered.app;
    this.params = offered.params;
    this.user =
      principal === undefined ? undefined : authInfo ? { id: principal, authInfo } : { id: principal };
  }

  get sdk(): ServerContext {
    throw new AuthorError(
      'c.sdk is not there for a call served by server.directToolCalls (the SDK does not serve it); a middleware marked directCalls must not read it.',
    );
  }

  get continues(): boolean {
    return this.params.requestState !== undefined;
  }

  get inputResponses(): Readonly<Record<string, unknown>> | undefined {
    const answers = this.params.inputResponses;
    return isRecord(answers) ? answers : undefined;
  }

  get meta(): Readonly<Record<string, unknown>> | undefined {
    const meta = this.params._meta;
    return isRecord(meta) ? meta : undefined;
  }
}

function directCall(offered: Offered, state: Json | undefined): DirectToolCall {
  const { app, params, sink } = offered;
  const meta = isRecord(params._meta) ? params._meta : {};
  const declared = meta[CLIENT_CAPABILITIES_META_KEY];
  const clientCapabilities = isRecord(declared) ? declared : {};
  const protocolVersion = String(meta[PROTOCOL_VERSION_META_KEY]);
  const abort = new AbortController();
  offered.onAbort(() => abort.abort());
  return {
    name: offered.name,
    params,
    state,
    principal: offered.principal,
    protocolVersion,
    clientCapabilities,
    can: (kind) => isDeclared(kind, clientCapabilities, protocolVersion),
    host: app.hosts.of(meta[CLIENT_INFO_META_KEY], protocolVersion)?.profile,
    signal: abort.signal,
    notify: (method, notificationParams) =>
      sink.notify({ jsonrpc: '2.0', method, params: notificationParams } as JSONRPCNotification),
  };
}
