import type { TokenUse } from '../token-use.js';
import { RoundRobinPredictor } from './round-robin.js';
import { type HttpCall, type HttpReply, type MidRequestHook, send } from './send.js';

/** A reply through the balancer, with the replica that produced it. */
export interface BalancedReply extends HttpReply {
  /** The replica that answered (the last address nginx tried), if any answered. */
  readonly replica: string | undefined;
  /** Every replica nginx tried for this request, in order. */
  readonly tried: readonly string[];
}

/**
 * The load driver's one line to the balancer: every request goes out one at a time, in one global
 * sequence, so the replica the balancer picks next can be predicted from the `X-Upstream` header of
 * each response (nginx's `$upstream_addr`).
 */
export class BalancerChannel {
  readonly #origin: string;
  readonly #predictor: RoundRobinPredictor;
  readonly #served = new Map<string, number>();
  #busy = false;
  #sent = 0;

  readonly #tokenUse: TokenUse | undefined;

  /** `tokenUse`: counts each request's bearer token while it is on its way (see {@link TokenUse}). */
  constructor(origin: string, replicas: readonly string[], tokenUse?: TokenUse) {
    this.#origin = origin;
    this.#tokenUse = tokenUse;
    this.#predictor = new RoundRobinPredictor(replicas);
    for (const replica of replicas) this.#served.set(replica, 0);
  }

  get origin(): string {
    return this.#origin;
  }

  /** The replica the next request will most likely land on. */
  predictNext(): string {
    return this.#predictor.next();
  }

  async send(call: HttpCall, midRequest?: MidRequestHook): Promise<BalancedReply> {
    if (this.#busy) throw new Error('BalancerChannel sends one request at a time; await the previous one.');
    this.#busy = true;
    const authorization = call.headers.authorization;
    const release = authorization === undefined ? undefined : this.#tokenUse?.hold(authorization);
    try {
      const reply = balanced(await send(this.#origin, call, midRequest).finally(release));
      this.#sent++;
      if (reply.tried.length > 0) this.#predictor.saw(reply.tried.at(-1));
      if (reply.replica !== undefined)
        this.#served.set(reply.replica, (this.#served.get(reply.replica) ?? 0) + 1);
      return reply;
    } finally {
      this.#busy = false;
    }
  }

  /** Requests sent, responses per replica, and how well the next replica was predicted. */
  stats(): { sent: number; served: ReadonlyMap<string, number>; predicted: number; missed: number } {
    return { sent: this.#sent, served: this.#served, ...this.#predictor.accuracy };
  }
}

/** A reply through nginx, with the replicas it tried (`X-Upstream`, nginx's `$upstream_addr`) and the one that answered. */
export function balanced(reply: HttpReply): BalancedReply {
  const header = reply.headers['x-upstream'];
  const tried = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address.length > 0 && address !== '-');
  // A 502 names the replica that failed, not one that answered.
  const replica = reply.status === 0 || reply.status === 502 ? undefined : tried.at(-1);
  return { ...reply, replica, tried };
}
