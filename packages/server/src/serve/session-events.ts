import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** How long a sent event stays replayable: a client reconnects within seconds, not minutes. */
const DEFAULT_RETENTION_MS = 5 * 60_000;

/**
 * What one 2025 session's SSE streams sent, kept so a client whose stream closed (the server ends a
 * long call's stream to poll, or the network dropped) can reconnect with `Last-Event-ID` and get
 * the rest. Bounded: the oldest events go first past `maxEvents` or `maxBytes`, and every event
 * goes once it is older than `retentionMs` (see {@link prune}), so a long-lived session does not keep
 * everything it ever sent.
 */
export class SessionEvents implements EventStore {
  readonly #events = new Map<
    EventId,
    {
      readonly streamId: StreamId;
      readonly message: JSONRPCMessage;
      readonly size: number;
      readonly at: number;
    }
  >();
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

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${streamId}_${++this.#next}`;
    const size = JSON.stringify(message).length;
    this.#events.set(id, { streamId, message, size, at: this.#now() });
    this.#bytes += size;
    this.prune();
    return id;
  }

  /** Drops events past the caps and those older than the retention; the sessions' sweep calls it too. */
  prune(): void {
    const cutoff = this.#now() - this.#retentionMs;
    for (const [oldest, event] of this.#events) {
      if (this.#events.size <= this.#maxEvents && this.#bytes <= this.#maxBytes && event.at > cutoff) break;
      this.#events.delete(oldest);
      this.#bytes -= event.size;
    }
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.#events.get(lastEventId);
    if (!last) throw new Error('Unknown Last-Event-ID: those events are gone; call again.');
    let after = false;
    for (const [id, event] of this.#events) {
      if (after && event.streamId === last.streamId) await send(id, event.message);
      if (id === lastEventId) after = true;
    }
    return last.streamId;
  }
}
