import { AsyncLocalStorage } from 'node:async_hooks';
import type { Client, Tool } from '@modelcontextprotocol/client';
import { CallRegistry, type CallState } from './call-state.js';
import type { CallEvent } from './events.js';
import type { Settings } from './options.js';
import { QuestionQueue } from './question-queue.js';
import { ResumeTokens } from './resume-tokens.js';
import type { ElicitationUI, Era, ServerIdentity } from './types.js';
import { UrlFlows } from './url-flows.js';
import { WireTimer } from './wire-timer.js';

/**
 * What the parts of one connection share: the SDK client, who the server is, the host, the one
 * question queue, the calls in flight and the request timers (paused while the person answers).
 */
export class Connection {
  readonly queue = new QuestionQueue();
  readonly calls = new CallRegistry();
  readonly urlFlows = new UrlFlows();
  /**
   * The call whose request leg is being sent, carried through the SDK and the transport. A
   * handshake-era server request that arrives on that request's HTTP response stream is handled in
   * the same scope, so it is attributed to the right call even with several in flight.
   */
  readonly callScope = new AsyncLocalStorage<CallState>();
  /** The tools the host last listed, by name (their `x-mcp-header` parameters become headers). */
  readonly tools = new Map<string, Tool>();
  /** Resume tokens of calls a server parked at a question page (modern era). */
  readonly resumeTokens = new ResumeTokens();
  private readonly timers = new Set<WireTimer>();
  private identity: Identity | undefined;

  constructor(
    readonly sdk: Client,
    readonly ui: ElicitationUI,
    readonly settings: Settings,
    private readonly listener: (event: CallEvent) => void,
  ) {
    this.queue.onBusyChange((busy) => {
      for (const timer of this.timers) {
        if (busy) timer.pause();
        else timer.resume();
      }
    });
  }

  /** Hands an event to its call's own listeners, then to the connection's `onEvent`. */
  emit(event: CallEvent): void {
    this.calls.get(event.callId)?.record(event);
    this.listener(event);
  }

  /** Records what the handshake or probe found out; called once, right after connecting. */
  ready(server: ServerIdentity, era: Era, protocolVersion: string, eraNotice?: string): void {
    this.identity = { server, era, protocolVersion, eraNotice };
  }

  get eraNotice(): string | undefined {
    return this.known().eraNotice;
  }

  get server(): ServerIdentity {
    return this.known().server;
  }

  get era(): Era {
    return this.known().era;
  }

  get protocolVersion(): string {
    return this.known().protocolVersion;
  }

  /** A request timer that runs only while no question is waiting for the person. */
  startTimer(onExpire: () => void): { stop(): void } {
    const timer = new WireTimer(
      this.settings.requestTimeoutMs,
      () => {
        this.timers.delete(timer);
        onExpire();
      },
      this.queue.busy,
    );
    this.timers.add(timer);
    return {
      stop: () => {
        timer.stop();
        this.timers.delete(timer);
      },
    };
  }

  private known(): Identity {
    if (this.identity === undefined) throw new Error('The connection is not established yet');
    return this.identity;
  }
}

interface Identity {
  readonly server: ServerIdentity;
  readonly era: Era;
  readonly protocolVersion: string;
  readonly eraNotice: string | undefined;
}
