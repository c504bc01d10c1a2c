import type { BalancerChannel } from '../lb/channel.js';
import type { HttpCall, MidRequestHook } from '../lb/send.js';
import { toolsList } from '../mcp/modern-call.js';
import { unclearReason } from '../mcp/outcome.js';
import {
  callOf,
  type HeldFlow,
  kindOf,
  type LineOptions,
  ReplyTaker,
  type RequestKind,
  type RequestLine,
} from './client-requests.js';

interface Queued {
  readonly flow: HeldFlow;
  readonly call: HttpCall;
  readonly kind: RequestKind;
  readonly resolve: (response: Response) => void;
  readyAt: number;
  attempts: number;
}

/** A request cut by a kill, as the report names it. */
const CUT: Record<RequestKind, string> = {
  begin: 'the first round of a call',
  round: 'an answer to a call another replica holds',
  other: 'a request that is no round',
};

/**
 * The gateway run's one line to the balancer: real clients (Parley's, one per flow) send their
 * requests through {@link fetchFor}, and the sequencer sends them one at a time, in one global
 * order, so it can predict the replica nginx picks next (the fleet's {@link BalancerChannel}). It
 * sends a round of a held call only when the replica predicted next is NOT the one holding the call,
 * so every answer reaches the call through another replica and is passed on over Redis; when no
 * waiting request qualifies it pads with a `tools/list`. A request that meets an unclear failure (no
 * response, 502/503/504, or a reply thrown away on purpose) is sent again, as a host retrying a
 * 2026-07-28 round does.
 */
export class Sequencer implements RequestLine {
  readonly #channel: BalancerChannel;
  readonly #options: LineOptions;
  readonly #replies: ReplyTaker;
  readonly #queue: Queued[] = [];
  #wake: (() => void) | undefined;
  #stopped = false;
  #kill:
    | {
        wants: (replica: string) => boolean;
        hook: (cut: string, replica: string) => Promise<void>;
        done: () => void;
      }
    | undefined;
  readonly #counts = { padding: 0, cutByKill: 0 };

  constructor(channel: BalancerChannel, options: LineOptions = {}) {
    this.#channel = channel;
    this.#options = options;
    this.#replies = new ReplyTaker(options);
  }

  /** Requests sent again, given up and thrown away as lost; padding sent; requests cut by the kill. */
  get stats(): ReplyTaker['stats'] & { padding: number; cutByKill: number } {
    return { ...this.#replies.stats, ...this.#counts };
  }

  /** The fetch a flow's client uses: its requests join the one sequence. */
  fetchFor(flow: HeldFlow): typeof fetch {
    return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const call = callOf(input, init);
      if (call === undefined) return fetch(input, init); // nothing the run sequences
      return new Promise<Response>((resolve) => {
        this.#queue.push({ flow, call, kind: kindOf(call), resolve, readyAt: 0, attempts: 0 });
        this.#wake?.();
      });
    }) as typeof fetch;
  }

  /**
   * Runs `hook` (a kill) while a request is inside a replica `wants` picks: the next POST predicted
   * to land on a replica it wants goes out half-sent (preferably an answer to a call another replica
   * holds), and `hook` gets what that request was and the replica. Resolves once it happened.
   */
  killDuringRequest(
    wants: (replica: string) => boolean,
    hook: (cut: string, replica: string) => Promise<void>,
  ): Promise<void> {
    return new Promise((resolve) => {
      this.#kill = { wants, hook, done: resolve };
    });
  }

  cancelKill(): void {
    this.#kill?.done();
    this.#kill = undefined;
  }

  /** Sends until {@link stop} was called and nothing waits any more. */
  async run(): Promise<void> {
    for (;;) {
      const now = Date.now();
      const ready = this.#queue.filter((queued) => queued.readyAt <= now);
      if (ready.length === 0) {
        if (this.#stopped && this.#queue.length === 0) return;
        const next = Math.min(...this.#queue.map((queued) => queued.readyAt));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Number.isFinite(next) ? Math.max(1, next - now) : 50);
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.#wake = undefined;
        continue;
      }
      const predicted = this.#channel.predictNext();
      const candidates = ready.filter(
        (queued) => queued.kind !== 'round' || queued.flow.holder !== predicted,
      );
      const killing = this.#kill?.wants(predicted) === true;
      const chosen =
        (killing ? candidates.find((queued) => queued.kind === 'round') : undefined) ?? candidates[0];
      if (chosen === undefined) {
        await this.#pad();
        continue;
      }
      this.#queue.splice(this.#queue.indexOf(chosen), 1);
      await this.#send(chosen, killing ? predicted : undefined);
    }
  }

  /** No more flows start; {@link run} returns once the requests still waiting are sent. */
  stop(): void {
    this.#stopped = true;
    this.#wake?.();
  }

  async #send(queued: Queued, killing: string | undefined): Promise<void> {
    const kill = killing === undefined ? undefined : this.#kill;
    if (kill) this.#kill = undefined;
    const holder = queued.flow.holder;
    const hook: MidRequestHook | undefined = kill && (() => kill.hook(CUT[queued.kind], killing!));
    const reply = await this.#channel.send(queued.call, hook);
    kill?.done();
    const taken = this.#replies.take(queued.flow, queued.kind, reply, holder, ++queued.attempts);
    if (kill && taken.unclear !== undefined) this.#counts.cutByKill++;
    if ('response' in taken) {
      queued.resolve(taken.response);
      return;
    }
    queued.readyAt = Date.now() + taken.resendAfterMs;
    this.#queue.push(queued);
  }

  async #pad(): Promise<void> {
    this.#counts.padding++;
    const reply = await this.#channel.send(toolsList('fleet'));
    this.#options.onReply?.({
      flow: undefined,
      kind: 'padding',
      reply,
      holder: undefined,
      unclear: unclearReason(reply),
    });
  }
}
