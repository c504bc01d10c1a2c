import { connect, type ElicitationUI, type ParleyClient } from '@parley/client';
import type { FlowPlace } from '../mixed/era-result.js';
import { futureDate, type Random } from '../random.js';
import type { HeldFlow } from './client-requests.js';

/** How one flow of the gateway run ended. */
export interface TripResult {
  readonly id: number;
  readonly marker: string;
  /** `lost`: it never ended (it hung past the run's deadline). */
  readonly status: 'completed' | 'failed' | 'wrong' | 'lost';
  readonly reason?: string;
  /** The replica holding its call when it ended (its balancer address), and the question it was at. */
  readonly at?: FlowPlace;
  /** Requests it sent again after an unclear failure. */
  readonly resent: number;
  /** The replica holding its call (balancer address), and since when. */
  readonly holder?: string;
  readonly heldAt?: number;
  readonly endedAt: number;
}

/** The person's part: the upstream's title, as the gateway names who asks. */
const ASKER = 'Trips desk asks: ';
const STEPS = ['city', 'day', 'seats'] as const;

/**
 * One 2026-07-28 host's flow: Parley's client (its own, per flow) calls the 2025-only upstream's
 * `book_trip` through the gateway fleet with a unique marker, and answers its three questions with
 * this flow's own city, day and seats. Every question must quote exactly this flow's marker and
 * answers so far, and the result must be exactly this flow's booking: anything else is `wrong`.
 */
export class TripFlow implements HeldFlow {
  readonly id: number;
  readonly marker: string;
  holder: string | undefined;
  heldAt: number | undefined;
  resent = 0;
  readonly #city: string;
  readonly #day: string;
  readonly #seats: number;
  /** How long the person takes over each question, in ms. */
  readonly #think: readonly number[];
  #answered = 0;
  #wrong: string | undefined;

  constructor(id: number, random: Random) {
    this.id = id;
    this.holder = undefined;
    this.heldAt = undefined;
    this.marker = `f${id}-${random.word(6)}`;
    this.#city = `City-${random.word(5)}`;
    this.#day = futureDate(id % 3000);
    this.#seats = 1 + (id % 9);
    this.#think = STEPS.map(() => random.int(0, 20));
  }

  /** Where it stands: the question it is at. */
  get step(): string {
    return this.#answered < STEPS.length
      ? `question ${this.#answered + 1} (${STEPS[this.#answered]})`
      : 'the result (all three answered)';
  }

  async run(endpoint: string, fetch: typeof globalThis.fetch): Promise<TripResult> {
    let client: ParleyClient | undefined;
    try {
      client = await connect(endpoint, { ui: this.#ui(), era: 'modern', fetch, requestTimeoutMs: 120_000 });
      const result = await client.callTool('book_trip', { marker: this.marker });
      const text = (result.content ?? [])
        .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
        .join('\n');
      if (this.#wrong !== undefined) return this.#end('wrong', this.#wrong);
      if (result.isError === true) return this.#end('failed', text);
      const expected = JSON.stringify({
        marker: this.marker,
        city: this.#city,
        day: this.#day,
        seats: this.#seats,
      });
      if (text !== expected) return this.#end('wrong', `booked ${text.slice(0, 200)}, expected ${expected}`);
      return this.#end('completed');
    } catch (error) {
      if (this.#wrong !== undefined) return this.#end('wrong', this.#wrong);
      return this.#end('failed', error instanceof Error ? error.message : String(error));
    } finally {
      await client?.close().catch(() => {});
    }
  }

  #ui(): ElicitationUI {
    return {
      modes: { form: true, url: false },
      form: async (request) => {
        const expected = [
          `Trip ${this.marker}: which city?`,
          `Trip ${this.marker} to ${this.#city}: which day?`,
          `Trip ${this.marker} to ${this.#city} on ${this.#day}: how many seats?`,
        ][this.#answered];
        if (request.message !== `${ASKER}${expected}`) {
          this.#wrong ??= `asked "${request.message.slice(0, 200)}" where "${ASKER}${expected}" was due`;
          return { action: 'cancel' };
        }
        await new Promise((resolve) => setTimeout(resolve, this.#think[this.#answered]));
        const step = STEPS[this.#answered++]!;
        const content = {
          city: { city: this.#city },
          day: { day: this.#day },
          seats: { seats: this.#seats },
        }[step];
        return { action: 'accept', content };
      },
      url: async () => ({ action: 'decline' }),
    };
  }

  #end(status: TripResult['status'], reason?: string): TripResult {
    return {
      id: this.id,
      marker: this.marker,
      status,
      resent: this.resent,
      endedAt: Date.now(),
      ...(this.holder !== undefined && { holder: this.holder }),
      ...(this.heldAt !== undefined && { heldAt: this.heldAt }),
      ...(reason !== undefined && { reason }),
      ...(status !== 'completed' && { at: { step: this.step, replica: this.holder } }),
    };
  }
}
