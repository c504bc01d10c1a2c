import { Agent } from 'node:http';
import { balanced } from '../lb/channel.js';
import { send } from '../lb/send.js';
import { unclearReason } from '../mcp/outcome.js';
import {
  backoffMs,
  callOf,
  type HeldFlow,
  kindOf,
  type LineReply,
  LOST_REPLY,
  type RequestLine,
  toResponse,
} from './client-requests.js';

export interface ConcurrentLineOptions {
  /** Unclear failures of one request before its client is given the failure. Default 8. */
  readonly maxResends?: number;
  /** Every how many answers to a held call the reply is thrown away as lost. 0: never. */
  readonly loseReplyEvery?: number;
  readonly onReply?: (event: LineReply) => void;
}

/**
 * The clients' requests straight to the balancer, as many at once as they send: no order, each
 * lands wherever nginx sends it (on the holder of its call about one time in three). A request that
 * meets an unclear failure is sent again, as in the sequenced part.
 */
export class ConcurrentLine implements RequestLine {
  readonly #origin: string;
  readonly #options: ConcurrentLineOptions;
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 128 });
  readonly stats = { resent: 0, gaveUp: 0, lostReplies: 0 };
  #answers = 0;

  constructor(origin: string, options: ConcurrentLineOptions = {}) {
    this.#origin = origin;
    this.#options = options;
  }

  fetchFor(flow: HeldFlow): typeof fetch {
    return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const call = callOf(input, init);
      if (call === undefined) return fetch(input, init);
      const kind = kindOf(call);
      for (let attempts = 1; ; attempts++) {
        const holder = flow.holder;
        const reply = balanced(await send(this.#origin, call, undefined, this.#agent));
        let unclear = unclearReason(reply);
        const loseEvery = this.#options.loseReplyEvery ?? 0;
        if (unclear === undefined && kind === 'round' && loseEvery > 0 && ++this.#answers % loseEvery === 0) {
          unclear = LOST_REPLY;
          this.stats.lostReplies++;
        }
        this.#options.onReply?.({ flow, kind, reply, holder, unclear });
        if (unclear !== undefined && attempts <= (this.#options.maxResends ?? 8)) {
          this.stats.resent++;
          flow.resent++;
          await new Promise((resolve) => setTimeout(resolve, backoffMs(attempts)));
          continue;
        }
        if (unclear !== undefined) this.stats.gaveUp++;
        else if (kind === 'begin' && reply.replica !== undefined) {
          flow.holder = reply.replica;
          flow.heldAt = Date.now();
        }
        return toResponse(reply);
      }
    }) as typeof fetch;
  }

  close(): void {
    this.#agent.destroy();
  }
}
