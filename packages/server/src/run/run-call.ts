import type { AuthInfo, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import type { CreateTaskResult, EraCall, EraModule } from '../eras/era.js';
import { handshakeEra } from '../eras/handshake.js';
import { modernEra } from '../eras/modern.js';
import type { Principal } from '../types.js';
import { callerKey } from './caller-key.js';

export type { CallSpec } from '../eras/era.js';

/** The era a serving unit was built for (the SDK's names). */
export type ServingEra = 'modern' | 'legacy';

/** What a handler's call learns from the connection it arrived on. */
export interface ServingUnit {
  readonly transport: 'stdio' | 'http';
  /** The user a stdio connection acts for. */
  readonly localUser?: string | undefined;
  /** Auth info kept beside the request (the shared modern connection carries it out of band). */
  readonly authOf?: ((sdk: ServerContext) => AuthInfo | undefined) | undefined;
  /** Whom a request's budgets count against (the shared modern connection keeps it per request). */
  readonly callerOf?: ((sdk: ServerContext) => string | undefined) | undefined;
  /** Told when a request handler starts (the shared modern connection maps errors to HTTP statuses by it). */
  readonly onDispatch?: ((sdk: ServerContext) => void) | undefined;
  /** Whether a request is the server's own (the connection's era pin): middleware does not see it. */
  readonly internal?: ((sdk: ServerContext) => boolean) | undefined;
}

/** Everything one call needs: the request, the handler, and the unit it arrived on. */
export interface RunCallOptions<R> extends Omit<EraCall<R>, 'user' | 'caller' | 'transport'> {
  readonly era: ServingEra;
  readonly unit: ServingUnit;
}

/** The module that serves each era. A new protocol revision is one more entry. */
const ERAS: Record<ServingEra, EraModule> = { modern: modernEra, legacy: handshakeEra };

/**
 * Runs a handler for one request on its era: on 2026-07-28 by replaying the journal in the request's
 * sealed state (a round ends with an InputRequiredResult at the first unanswered question); on the
 * 2025 eras by sending questions to the client over the session.
 */
export function runCall<R>(options: RunCallOptions<R>): Promise<R | InputRequiredResult | CreateTaskResult> {
  // Not `async`: the era's promise is the call's, with no link around it while the call waits.
  const { app, sdk, unit } = options;
  const user = userOf(app, unit, sdk);
  // One literal (no spread): an object built by spreading gets a hidden class of its own, and a
  // 2025-era call keeps this one while the person answers.
  return ERAS[options.era].run({
    app,
    sdk,
    server: options.server,
    call: options.call,
    user,
    caller: unit.callerOf?.(sdk) ?? callerKey(user?.id, undefined),
    transport: unit.transport,
    observe: options.observe,
    runs: options.runs,
    task: options.task,
  });
}

/** The verified user of a request: from its auth info, else the stdio user. */
export function userOf(app: App, unit: ServingUnit, sdk: ServerContext): Principal | undefined {
  const authInfo = unit.authOf?.(sdk) ?? sdk.http?.authInfo;
  const principal = app.principalOf(authInfo) ?? unit.localUser;
  return principal === undefined ? undefined : { id: principal, ...(authInfo && { authInfo }) };
}
