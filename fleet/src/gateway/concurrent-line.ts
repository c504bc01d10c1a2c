import { Agent } from 'node:http';
import { balanced } from '../lb/channel.js';
import { send } from '../lb/send.js';
import {
  callOf,
  type HeldFlow,
  kindOf,
  type LineOptions,
  ReplyTaker,
  type RequestLine,
} from './client-requests.js';

/**
 * The clients' requests straight to the balancer, as many at once as they send: no order, each
 * lands wherever nginx sends it (on the holder of its call about one time in three). A request that
 * meets an unclear failure is sent again, as in the sequenced part.
 */
export class ConcurrentLine implements RequestLine {
  readonly #origin: string;
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 128 });
  readonly #replies: ReplyTaker;

  constructor(origin: string, options: LineOptions = {}) {
    this.#origin = origin;
    this.#replies = new ReplyTaker(options);
  }

  get stats(): ReplyTaker['stats'] {
    return this.#replies.stats;
  }

  fetchFor(flow: HeldFlow): typeof fetch {
    return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const call = callOf(input, init);
      if (call === undefined) return fetch(input, init);
      const kind = kindOf(call);
      for (let attempts = 1; ; attempts++) {
        const holder = flow.holder;
        const reply = balanced(await send(this.#origin, call, undefined, this.#agent));
        const taken = this.#replies.take(flow, kind, reply, holder, attempts);
        if ('response' in taken) return taken.response;
        await new Promise((resolve) => setTimeout(resolve, taken.resendAfterMs));
      }
    }) as typeof fetch;
  }

  close(): void {
    this.#agent.destroy();
  }
}
