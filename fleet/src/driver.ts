import { Browser } from './flows/browser.js';
import { ConnectFlow } from './flows/connect-flow.js';
import { FlightFlow } from './flows/flight-flow.js';
import type { Flow, FlowKind, Step } from './flows/flow.js';
import { ReturnFlow } from './flows/return-flow.js';
import type { FlowDeps } from './flows/rounds-flow.js';
import type { BalancedReply, BalancerChannel } from './lb/channel.js';
import type { MidRequestHook } from './lb/send.js';
import { toolsList } from './mcp/modern-call.js';
import { unclearReason } from './mcp/outcome.js';
import type { FlowPlace } from './mixed/era-result.js';
import { Random } from './random.js';
import { type Tokens, USERS, type UserName } from './users.js';

export interface DriverOptions {
  readonly channel: BalancerChannel;
  /** Flows to run at least (a third of each kind). */
  readonly flows: number;
  /** Flows in progress at once, interleaved on the one request sequence. */
  readonly active: number;
  readonly seed: number;
  /** The bearer tokens to use now. */
  readonly tokens: () => Tokens;
  /** Each user's browser, signed in to the store already. */
  readonly browsers: Readonly<Record<UserName, Browser>>;
  /** Every how many URL flows one uses a fresh browser that must sign in first. Default 20. */
  readonly freshBrowserEvery?: number;
  /**
   * Every how many side-effect rounds the driver throws the answer away as if the response had been
   * lost on the way back (the booking happened; the flow must find it, not book again). 0: never.
   */
  readonly loseResponseEvery?: number;
  /** Unclear failures of one flow before it gives up. Default 8. */
  readonly maxRetries?: number;
  /** Called after every reply, for observers (fault windows, key use, probes). */
  readonly onReply?: (event: ReplyEvent) => void | Promise<void>;
  /** Whether to keep starting flows after `flows` are done (faults still under way). */
  readonly keepGoing?: () => boolean;
}

/** One reply, as the observers see it. */
export interface ReplyEvent {
  readonly flow: Flow | undefined;
  readonly step: Step | undefined;
  readonly reply: BalancedReply;
  /** The replica of the flow's previous request, if it had one. */
  readonly previousReplica: string | undefined;
  readonly unclear: string | undefined;
}

/** How each flow ended. */
export interface FlowResult {
  readonly flow: Flow;
  readonly id: number;
  readonly kind: FlowKind;
  readonly user: UserName;
  readonly status: 'completed' | 'failed' | 'wrong';
  /** Unclear failures it met (requests sent again or checked). */
  readonly retries: number;
  /** Its side-effect round failed unclearly and the booking check found it done. */
  readonly recovered: boolean;
  /** Its last failure was unclear (the balancer or a replica gave up on it): retrying it is the fix. */
  readonly retryable: boolean;
  readonly reason?: string;
  /** Where a flow that did not complete stood: the step it was on, the replica that answered it last. */
  readonly at?: FlowPlace;
}

/** Replies from a replica, and how each compares with the replica of the flow's request before it. */
export interface Alternation {
  total: number;
  /** The flow's first request: there is no replica before it. */
  first: number;
  /** Served by another replica than the flow's previous request. */
  alternated: number;
  /** Served by the same replica as the flow's previous request. */
  same: number;
}

/** What the driver counts besides the flows. */
export interface DriverStats {
  /** Replies to flow requests by what they were, and whether they came from another replica than the flow's previous request. */
  readonly rounds: Alternation;
  readonly pages: Alternation;
  /** Requests sent only to move the balancer on (no ready flow could take the next replica). */
  readonly padding: number;
  /** Requests sent again after an unclear failure, by how they were retried. */
  readonly resent: { safe: number; checkedFirst: number };
  /** Requests cut mid-way inside a replica by a kill. */
  readonly cutByKill: number;
  /** Responses to side-effect rounds thrown away on purpose (lost responses). */
  readonly lostResponses: number;
}

interface Active {
  readonly flow: Flow;
  lastReplica: string | undefined;
  lastSentAt: number;
  retries: number;
  recovered: boolean;
  readyAt: number;
}

const KINDS: readonly FlowKind[] = ['form', 'three-round', 'url'];

/**
 * The load driver: runs many multi-round flows over ONE request sequence through the balancer.
 * Before each request it predicts the replica the balancer will pick and sends a step of a flow
 * whose previous request went to another replica, so every round of every flow lands on a
 * different replica than the one before; when no flow can, it sends a cheap `tools/list` instead.
 */
export class Driver {
  readonly #options: DriverOptions;
  readonly #random: Random;
  readonly #active: Active[] = [];
  readonly #results: FlowResult[] = [];
  readonly #deps: FlowDeps;
  #created = 0;
  #urlFlows = 0;
  #kill: { victim: string; hook: MidRequestHook; done: () => void } | undefined;
  readonly #stats = {
    rounds: { total: 0, first: 0, alternated: 0, same: 0 },
    pages: { total: 0, first: 0, alternated: 0, same: 0 },
    padding: 0,
    resent: { safe: 0, checkedFirst: 0 },
    cutByKill: 0,
    lostResponses: 0,
  };
  #sideEffectRounds = 0;

  constructor(options: DriverOptions) {
    this.#options = options;
    this.#random = new Random(options.seed);
    this.#deps = { tokens: options.tokens };
  }

  get results(): readonly FlowResult[] {
    return this.#results;
  }

  get stats(): DriverStats {
    return this.#stats;
  }

  /** Flows finished so far, as a share of the flows asked for. */
  get progress(): number {
    return this.#results.length / this.#options.flows;
  }

  /** Flows in progress now. */
  get inProgress(): readonly Flow[] {
    return this.#active.map((active) => active.flow);
  }

  /**
   * Runs `hook` (a kill) while a request is inside `victim`: the next POST predicted to land there
   * goes out half-sent, the hook runs, then the rest follows. Resolves once it happened.
   */
  killDuringRequest(victim: string, hook: MidRequestHook): Promise<void> {
    return new Promise((resolve) => {
      this.#kill = { victim, hook, done: resolve };
    });
  }

  /** Gives up a kill that never found its moment (the caller kills without a request inside). */
  cancelKill(): void {
    this.#kill?.done();
    this.#kill = undefined;
  }

  async run(): Promise<void> {
    for (;;) {
      this.#fill();
      if (this.#active.length === 0) return;
      const predicted = this.#options.channel.predictNext();
      const now = Date.now();
      const ready = this.#active.filter((active) => active.readyAt <= now);
      if (ready.length === 0) {
        const wake = Math.min(...this.#active.map((active) => active.readyAt));
        await new Promise((resolve) => setTimeout(resolve, Math.max(1, wake - now)));
        continue;
      }
      const candidates = ready
        .filter((active) => active.lastReplica !== predicted)
        .sort((a, b) => a.lastSentAt - b.lastSentAt);
      const chosen = this.#preferForKill(candidates, predicted) ?? candidates[0];
      if (!chosen) {
        await this.#pad();
        continue;
      }
      await this.#advance(chosen, predicted);
    }
  }

  /** When a kill waits for a request inside the predicted replica, a POST step of a flow. */
  #preferForKill(candidates: Active[], predicted: string): Active | undefined {
    if (this.#kill?.victim !== predicted) return undefined;
    // A side-effect round if there is one: its unclear failure must be checked, not blindly re-sent.
    const posts = candidates.filter((active) => active.flow.step().call.method === 'POST');
    return posts.find((active) => active.flow.step().retry === 'reconcile') ?? posts[0];
  }

  async #advance(active: Active, predicted: string): Promise<void> {
    const { flow } = active;
    const step = flow.step();
    const kill = this.#kill?.victim === predicted && step.call.method === 'POST' ? this.#kill : undefined;
    if (kill) this.#kill = undefined;
    const reply = await this.#options.channel.send(step.call, kill?.hook);
    kill?.done();
    active.lastSentAt = Date.now();
    const previousReplica = active.lastReplica;
    let unclear = unclearReason(reply);
    if (kill && unclear && reply.tried.includes(kill.victim)) this.#stats.cutByKill++;
    const loseEvery = this.#options.loseResponseEvery ?? 0;
    if (
      unclear === undefined &&
      step.retry === 'reconcile' &&
      loseEvery > 0 &&
      ++this.#sideEffectRounds % loseEvery === 0
    ) {
      unclear = 'the response was lost on the way back (thrown away by the driver)';
      this.#stats.lostResponses++;
    }
    if (reply.replica !== undefined) {
      const counts = step.round ? this.#stats.rounds : this.#stats.pages;
      counts.total++;
      if (previousReplica === undefined) counts.first++;
      else if (previousReplica !== reply.replica) counts.alternated++;
      else counts.same++;
      active.lastReplica = reply.replica;
    }
    await this.#options.onReply?.({ flow, step, reply, previousReplica, unclear });

    if (unclear !== undefined) {
      active.retries++;
      if (step.retry === 'reconcile') this.#stats.resent.checkedFirst++;
      else this.#stats.resent.safe++;
      if (active.retries > (this.#options.maxRetries ?? 8)) {
        this.#finish(
          active,
          'failed',
          `gave up after ${active.retries} unclear failures; last: ${unclear}`,
          true,
          { step: step.label, replica: reply.replica ?? reply.tried.at(-1) },
        );
        return;
      }
      flow.unclear();
      active.readyAt = Date.now() + Math.min(1000, 50 * 2 ** Math.min(active.retries, 5));
      return;
    }
    const progress = flow.handle(reply);
    if (progress.status === 'continue') return;
    if (progress.status === 'completed') {
      active.recovered = progress.recovered === true;
      this.#finish(active, 'completed');
    } else {
      this.#finish(active, progress.status, progress.reason, false, {
        step: step.label,
        replica: reply.replica,
      });
    }
  }

  async #pad(): Promise<void> {
    this.#stats.padding++;
    const reply = await this.#options.channel.send(toolsList(this.#options.tokens().alice));
    await this.#options.onReply?.({
      flow: undefined,
      step: undefined,
      reply,
      previousReplica: undefined,
      unclear: unclearReason(reply),
    });
  }

  #finish(
    active: Active,
    status: FlowResult['status'],
    reason?: string,
    retryable = false,
    at?: FlowPlace,
  ): void {
    this.#active.splice(this.#active.indexOf(active), 1);
    const { flow } = active;
    this.#results.push({
      flow,
      id: flow.id,
      kind: flow.kind,
      user: flow.user,
      status,
      retries: active.retries,
      recovered: active.recovered,
      retryable,
      ...(reason !== undefined && { reason }),
      ...(at !== undefined && { at }),
    });
  }

  #fill(): void {
    while (this.#active.length < this.#options.active) {
      const more = this.#created < this.#options.flows || (this.#options.keepGoing?.() ?? false);
      if (!more) return;
      this.#active.push({
        flow: this.#newFlow(this.#created++),
        lastReplica: undefined,
        lastSentAt: 0,
        retries: 0,
        recovered: false,
        readyAt: 0,
      });
    }
  }

  #newFlow(id: number): Flow {
    const kind = KINDS[id % KINDS.length]!;
    const user = USERS[Math.floor(id / KINDS.length) % USERS.length]!.name;
    if (kind === 'form') return new ReturnFlow(id, user, this.#deps, this.#random);
    if (kind === 'three-round') return new FlightFlow(id, user, this.#deps, this.#random);
    const fresh = this.#urlFlows++ % (this.#options.freshBrowserEvery ?? 20) === 0;
    const browser = fresh ? new Browser(this.#options.channel.origin) : this.#options.browsers[user];
    return new ConnectFlow(id, user, this.#deps, browser);
  }
}
