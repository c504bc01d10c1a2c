/** How long a sent event stays replayable: a client reconnects within seconds, not minutes. */
const DEFAULT_RETENTION_MS = 5 * 60_000;

interface SentEvent {
  readonly streamId: string;
  /** The message as sent (its JSON text: a string is smaller than the object, and is what a replay writes). */
  readonly data: string;
  readonly at: number;
}

/**
 * What one 2025 session's SSE streams sent, kept so a client whose stream closed (the server ends a
 * long call's stream to poll, or the network dropped) can reconnect with `Last-Event-ID` and get
 * the rest. Bounded: the oldest events go first past `maxEvents` or `maxBytes`, and every event
 * goes once it is older than `retentionMs` (see {@link prune}), so a long-lived session does not keep
 * everything it ever sent.
 */
export class SessionEvents {
  readonly #events = new Map<string, SentEvent>();
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
  }

  /** Bytes of messages held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Keeps what a stream sent (`data`: the message's JSON text) and answers its event id. */
  store(streamId: string, data: string): string {
    const id = `${streamId}_${++this.#next}`;
    this.#events.set(id, { streamId, data, at: this.#now() });
    this.#bytes += data.length;
    this.prune();
    return id;
  }

  /** Drops events past the caps and those older than the retention; the sessions' sweep calls it too. */
  prune(): void {
    const cutoff = this.#now() - this.#retentionMs;
    for (const [oldest, event] of this.#events) {
      if (this.#events.size <= this.#maxEvents && this.#bytes <= this.#maxBytes && event.at > cutoff) break;
      this.#events.delete(oldest);
      this.#bytes -= event.data.length;
    }
  }

  /** The stream an event was sent on, if it is still kept. */
  streamOf(eventId: string): string | undefined {
    return this.#events.get(eventId)?.streamId;
  }

  /**
   * What the stream of `lastEventId` sent after it, oldest first, as `[eventId, data]`; `undefined`
   * when that event is no longer kept (or never was).
   */
  after(lastEventId: string): { streamId: string; events: [string, string][] } | undefined {
    const last = this.#events.get(lastEventId);
    if (!last) return undefined;
    const events: [string, string][] = [];
    let after = false;
    for (const [id, event] of this.#events) {
      // A priming event (empty data) only gave the client an id to resume from: nothing to replay.
      if (after && event.streamId === last.streamId && event.data !== '') events.push([id, event.data]);
      if (id === lastEventId) after = true;
    }
    return { streamId: last.streamId, events };
  }
}
