import type { CallHost } from '../ask/call-host.js';
import type { CallSecrets } from '../ask/call-secrets.js';
import type { GuardRound } from '../context/guard-round.js';
import type { ContextFacts, TaskHooks } from '../context/parley-context.js';
import type { NotificationSequence } from '../context/side-channels.js';
import type { FlowKit } from '../flows/flow-kit.js';
import type { QuestionPages } from '../pages/question-pages.js';
import type { ArgumentsSource } from '../registry/missing-args.js';
import type { CallRequest, EraName } from '../request/call-request.js';
import type { Principal } from '../types.js';
import type { CallSpec, EraCall } from './era.js';

/** The client of a call, as its era reads it: the same for every run of the call's handler. */
export interface CallClient {
  readonly protocolVersion: string;
  readonly clientCapabilities: unknown;
  readonly clientInfo: { readonly name?: string; readonly version?: string } | undefined;
  /** The call's client, when a host profile knows it (its forms are lowered for it). */
  readonly host: CallHost | undefined;
}

/**
 * The facts one run of a handler's `ctx` is built from, on either era: the request's (who asks,
 * over what), the client's, and this run's own. The one place a `ContextFacts` is made.
 */
export class RunFacts implements ContextFacts {
  constructor(
    readonly request: CallRequest,
    /** What the request calls, and the handler that serves it. */
    readonly called: EraCall<unknown>,
    readonly client: CallClient,
    readonly task: TaskHooks,
    readonly secrets: CallSecrets,
    /** A budget bucket for an anonymous caller's pages (its address, its session): not an identity. */
    readonly anonymousScope: string | undefined,
    readonly resumable: boolean,
    readonly guard: GuardRound | undefined,
    readonly notifications: NotificationSequence | undefined,
  ) {}

  /** The facts of the next run of the same call (a guard round on the 2025 eras). */
  nextRun(guard: GuardRound, notifications: NotificationSequence): RunFacts {
    return new RunFacts(
      this.request,
      this.called,
      this.client,
      this.task,
      this.secrets,
      this.anonymousScope,
      this.resumable,
      guard,
      notifications,
    );
  }

  get call(): CallSpec {
    return this.called.spec;
  }

  get argumentsSource(): ArgumentsSource | undefined {
    return this.called.argumentsSource;
  }

  get era(): EraName {
    return this.request.era;
  }

  get user(): Principal | undefined {
    return this.request.user;
  }

  get sdk(): ContextFacts['sdk'] {
    return this.request.sdk;
  }

  get transport(): 'stdio' | 'http' {
    return this.request.transport;
  }

  get pages(): QuestionPages | undefined {
    return this.request.app.pages;
  }

  get flows(): FlowKit | undefined {
    return this.request.app.flows;
  }

  get protocolVersion(): string {
    return this.client.protocolVersion;
  }

  get clientCapabilities(): unknown {
    return this.client.clientCapabilities;
  }

  get clientInfo(): CallClient['clientInfo'] {
    return this.client.clientInfo;
  }

  get host(): CallHost | undefined {
    return this.client.host;
  }
}
