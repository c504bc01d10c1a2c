import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/**
 * What one 2025 session's SSE streams sent, kept so a client whose stream closed (the server ends a
 * long call's stream to poll, or the network dropped) can reconnect with `Last-Event-ID` and get
 * the rest. Bounded: the oldest events go first past `maxEvents` or `maxBytes`.
 */
export class SessionEvents implements EventStore {
  readonly #events = new Map<
    EventId,
    { readonly streamId: StreamId; readonly message: JSONRPCMessage; readonly size: number }
  >();
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  #bytes = 0;
  #next = 0;

  constructor(limits: { readonly maxEvents?: number; readonly maxBytes?: number } = {}) {
    this.#maxEvents = limits.maxEvents ?? 1000;
    this.#maxBytes = limits.maxBytes ?? 4 * 1024 * 1024;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${streamId}_${++this.#next}`;
    const size = JSON.stringify(message).length;
    this.#events.set(id, { streamId, message, size });
    this.#bytes += size;
    for (const [oldest, event] of this.#events) {
      if (this.#events.size <= this.#maxEvents && this.#bytes <= this.#maxBytes) break;
      this.#events.delete(oldest);
      this.#bytes -= event.size;
    }
    return id;
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
