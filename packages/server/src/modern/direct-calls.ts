import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type JSONRPCNotification,
  type JSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import { isRecord } from '@parley/core';
import type { App } from '../app.js';
import { isDeclared } from '../ask/kind-table.js';
import type { DirectToolCall, DirectToolCalls } from '../direct-call-types.js';
import { INTERNAL_ERROR, INVALID_PARAMS, rpcError } from '../http/rpc-error.js';
import { bindingBytes, DIRECT_PURPOSE } from '../state/binding.js';
import type { Json } from '../state/round-state.js';
import { INVALID_STATE } from '../state/state-codec.js';
import type { ExchangeSink } from './modern-mux.js';

/** What a direct call's `requestState` starts with: no state of Parley's own does (base64url has no `.`). */
const DIRECT_PREFIX = 'd.';

/** One offered call, as the endpoint hands it over. */
interface Offered {
  readonly app: App;
  readonly handler: DirectToolCalls;
  readonly message: JSONRPCRequest;
  readonly params: Record<string, unknown>;
  readonly name: string;
  readonly principal: string | undefined;
  /** What its state is sealed to (see `bindingBytes`), worked out when a state is opened or sealed. */
  binding(): Uint8Array;
  readonly sink: ExchangeSink;
  readonly onAbort: (listener: () => void) => void;
  readonly serveAsUsual: (message: JSONRPCRequest) => void;
}

/**
 * Offers a 2026-07-28 `tools/call` to the server's direct handler. Returns false (nothing sent)
 * when the call is not for it: no handler, middleware registered (it must see every call), or a
 * `requestState` of Parley's own. A state of the handler's that does not open is refused as
 * Parley refuses its own. `serveAsUsual` serves a request through Parley's own path.
 */
export function offerDirectCall(
  app: App,
  message: JSONRPCRequest,
  principal: string | undefined,
  sink: ExchangeSink,
  onAbort: (listener: () => void) => void,
  serveAsUsual: (message: JSONRPCRequest) => void,
): boolean {
  const handler = app.directToolCalls;
  if (handler === undefined || app.middleware.length > 0) return false;
  const params = (message.params ?? {}) as Record<string, unknown>;
  const token = params.requestState;
  if (token !== undefined && !(typeof token === 'string' && token.startsWith(DIRECT_PREFIX))) return false;
  const name = params.name;
  if (typeof name !== 'string') return false;
  let bytes: Uint8Array | undefined;
  const binding = () => {
    const facts = { server: app.info.name, method: 'tools/call' as const, target: name, principal };
    bytes ??= bindingBytes({ ...facts, args: params.arguments ?? {} }, DIRECT_PURPOSE);
    return bytes;
  };
  const offered = { app, handler, message, params, name, principal, binding, sink, onAbort, serveAsUsual };
  void serveDirect(offered).catch((error: unknown) => {
    app.log('error', `direct tool call: ${error instanceof Error ? error.message : String(error)}`);
    sink.finish(rpcError(message.id, INTERNAL_ERROR, 'Internal error') as never, false);
  });
  return true;
}

async function serveDirect(offered: Offered): Promise<void> {
  const { app, message, params, sink } = offered;
  const codec = await app.codec();
  let state: Json | undefined;
  if (typeof params.requestState === 'string') {
    const opened = await codec.openJson(params.requestState.slice(DIRECT_PREFIX.length), offered.binding());
    if (!opened.ok) {
      const name = JSON.stringify(offered.name.slice(0, 64));
      app.log('info', `direct tool call ${name}: requestState refused (${opened.reason})`);
      const refusal = rpcError(message.id, INVALID_PARAMS, INVALID_STATE.message, INVALID_STATE.data);
      return sink.finish(refusal as never, false);
    }
    state = opened.state;
  }
  const outcome = await offered.handler(directCall(offered, state));
  // Not the handler's: served as it came (a state of the handler's then fails to open as Parley's).
  if (outcome === undefined) return offered.serveAsUsual(message);
  if ('serve' in outcome) {
    const { requestState: _state, inputResponses: _answers, ...fresh } = params;
    const meta = { ...(isRecord(params._meta) ? params._meta : {}), ...(outcome.serve.meta ?? {}) };
    return offered.serveAsUsual({ ...message, params: { ...fresh, _meta: meta } });
  }
  if ('error' in outcome) {
    const { code, message: text, data } = outcome.error;
    return sink.finish(rpcError(message.id, code, text, data) as never, false);
  }
  const serverInfo = { [SERVER_INFO_META_KEY]: app.info };
  if ('result' in outcome) {
    const meta = isRecord(outcome.result._meta) ? outcome.result._meta : {};
    const result = { ...outcome.result, resultType: 'complete', _meta: { ...meta, ...serverInfo } };
    return sink.finish({ jsonrpc: '2.0', id: message.id, result } as never, false);
  }
  const requestState = DIRECT_PREFIX + (await codec.sealJson(outcome.state, offered.binding()));
  const result = {
    resultType: 'input_required',
    ...(outcome.inputRequests !== undefined && { inputRequests: outcome.inputRequests }),
    requestState,
    _meta: serverInfo,
  };
  sink.finish({ jsonrpc: '2.0', id: message.id, result } as never, false);
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
