import type { AuthInfo, Server, ServerContext } from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import { callerKey } from '../http/caller-key.js';
import type { MiddlewareMethod } from '../middleware.js';
import type { Principal } from '../types.js';

/** What the HTTP edge recorded about a request it passed to the shared modern connection. */
export interface Arrival {
  /** The request's verified auth info (the SDK's `ctx.http` does not carry it on this connection). */
  readonly authInfo: AuthInfo | undefined;
  /** Whom the request's budgets count against (see `callerKey`): the user, or the caller's address. */
  readonly caller: string;
  /** The server's own request (the connection's era pin), not a client's: middleware does not see it. */
  readonly internal: boolean;
  /** Told when a request handler starts (errors before it are the SDK's dispatch checks). */
  dispatched(): void;
}

/** The era a serving unit speaks: 2026-07-28 (`modern`) or the 2025 revisions (`handshake`). */
export type EraName = 'modern' | 'handshake';

/** What a request learns from the connection it arrived on (the same for every request of one unit). */
export interface ServingUnit {
  readonly era: EraName;
  readonly transport: 'stdio' | 'http';
  /** The user a stdio connection acts for. */
  readonly localUser?: string | undefined;
  /** What the edge recorded about a request, found by its id: the shared modern connection's one lookup. */
  readonly arrivalOf?: ((sdk: ServerContext) => Arrival | undefined) | undefined;
}

/**
 * One request to the server, as its edge saw it: built once, where the SDK hands the request to
 * Parley, and carried down unchanged to the middleware chain, the era that runs the call, and the
 * key a parked call is found by. Everything about who asks and how the request arrived is here.
 *
 * A class with one shape: a 2025-era call keeps its request while the person answers.
 */
export class CallRequest {
  /** The verified user: from the request's auth info, else the stdio user; never what the client claims. */
  readonly user: Principal | undefined;
  /** Whom the call's budgets (its tasks) count against: the user, or an anonymous caller's address. */
  readonly caller: string;
  /** The server's own request (the era pin): middleware does not see it. */
  readonly internal: boolean;

  constructor(
    readonly app: App,
    /** The SDK server of the serving unit (a 2025 session's negotiated facts live there). */
    readonly server: Server,
    /** The official SDK's context of the request. */
    readonly sdk: ServerContext,
    readonly unit: ServingUnit,
    readonly method: MiddlewareMethod,
    /** The request's params as the client sent them. */
    readonly params: unknown,
    arrival: Arrival | undefined,
  ) {
    this.user = userOf(app, unit, arrival ? arrival.authInfo : sdk.http?.authInfo);
    this.caller = arrival?.caller ?? callerKey(this.user?.id, undefined);
    this.internal = arrival?.internal ?? false;
  }

  get era(): EraName {
    return this.unit.era;
  }

  /** How the request arrived (question pages check who opens them only over HTTP). */
  get transport(): 'stdio' | 'http' {
    return this.unit.transport;
  }

  /** Whether the request continues a 2026-07-28 call (it carries a `requestState`). */
  get continues(): boolean {
    return this.sdk.mcpReq.requestState<unknown>() !== undefined;
  }

  /** The 2026-07-28 answers the request carries, as sent. */
  get inputResponses(): Readonly<Record<string, unknown>> | undefined {
    return this.sdk.mcpReq.inputResponses;
  }

  /** The request's `_meta`, as sent (where a client puts `traceparent`). */
  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.sdk.mcpReq._meta;
  }

  /** The 2025 session the request came on, if any. */
  get session(): string | undefined {
    return this.sdk.sessionId;
  }
}

/** The verified user of a request: from its auth info, else the stdio user. */
function userOf(app: App, unit: ServingUnit, authInfo: AuthInfo | undefined): Principal | undefined {
  const principal = app.principalOf(authInfo) ?? unit.localUser;
  if (principal === undefined) return undefined;
  return authInfo ? { id: principal, authInfo } : { id: principal };
}
