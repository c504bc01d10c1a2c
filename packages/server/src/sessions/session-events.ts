/** How long a sent event stays replayable: a client reconnects within seconds, not minutes. */
const DEFAULT_RETENTION_MS = 5 * 60_000;

interface SentEvent {
  readonly streamId: string;
  /** The message as sent (its JSON text: a string is smaller than the object, and is what a replay writes). */
  readonly data: string;
  /** When it was stored, in ms since the buffer was made (a small integer, not a boxed time). */
  readonly at: number;
}

/** An event id `<streamId>_<sequence>` taken apart; `undefined` for one this buffer never made. */
function parseEventId(eventId: string): { streamId: string; sequence: number } | undefined {
  const parts = EVENT_ID.exec(eventId);
  return parts ? { streamId: parts[1]!, sequence: Number(parts[2]) } : undefined;
}

const EVENT_ID = /^(.*)_([1-9][0-9]{0,14})$/;

/**
 * What one 2025 session's SSE streams sent, kept so a client whose stream closed (the server ends a
 * long call's stream to poll, or the network dropped) can reconnect with `Last-Event-ID` and get
 * the rest. Bounded: the oldest events go first past `maxEvents` or `maxBytes`, and every event
 * goes once it is older than `retentionMs` (see {@link prune}), so a long-lived session does not keep
 * everything it ever sent.
 */
export class SessionEvents {
  /** By sequence number (the id's tail): a small-integer key, where a string id would be one more string per event. */
  readonly #events = new Map<number, SentEvent>();
  readonly #epoch: number;
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #retentionMs: number;
  readonly #now: () => number;
  #bytes = 0;
  #next = 0;

  constructor(
    limits: {
      readonly maxEvents?: number;
      readonly maxBytes?: number;
      readonly retentionMs?: number;
      readonly now?: () => number;
    } = {},
  ) {
    this.#maxEvents = limits.maxEvents ?? 1000;
    this.#maxBytes = limits.maxBytes ?? 1024 * 1024;
    this.#retentionMs = limits.retentionMs ?? DEFAULT_RETENTION_MS;
    this.#now = limits.now ?? Date.now;
    this.#epoch = this.#now();
  }

  /** Bytes of messages held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Keeps what a stream sent (`data`: the message's JSON text) and answers its event id. */
  store(streamId: string, data: string): string {
    const sequence = ++this.#next;
    this.#events.set(sequence, { streamId, data, at: this.#now() - this.#epoch });
    this.#bytes += data.length;
    this.prune();
    return `${streamId}_${sequence}`;
  }

  /** Drops events past the caps and those older than the retention; the sessions' sweep calls it too. */
  prune(): void {
    const cutoff = this.#now() - this.#epoch - this.#retentionMs;
    for (const [oldest, event] of this.#events) {
      if (this.#events.size <= this.#maxEvents && this.#bytes <= this.#maxBytes && event.at > cutoff) break;
      this.#events.delete(oldest);
      this.#bytes -= event.data.length;
    }
  }

  /** The stream an event was sent on, if it is still kept. */
  streamOf(eventId: string): string | undefined {
    return this.#find(eventId)?.streamId;
  }

  /** The event `eventId` names, if it is still kept (and the id is whole: its stream matches). */
  #find(eventId: string): SentEvent | undefined {
    const parsed = parseEventId(eventId);
    const event = parsed && this.#events.get(parsed.sequence);
    return event?.streamId === parsed?.streamId ? event : undefined;
  }

  /**
   * What the stream of `lastEventId` sent after it, oldest first, as `[eventId, data]`; `undefined`
   * when that event is no longer kept (or never was).
   */
  after(lastEventId: string): { streamId: string; events: [string, string][] } | undefined {
    const last = this.#find(lastEventId);
    if (!last) return undefined;
    const events: [string, string][] = [];
    let after = false;
    for (const [sequence, event] of this.#events) {
      // A priming event (empty data) only gave the client an id to resume from: nothing to replay.
      if (after && event.streamId === last.streamId && event.data !== '')
        events.push([`${event.streamId}_${sequence}`, event.data]);
      if (event === last) after = true;
    }
    return { streamId: last.streamId, events };
  }
}
