import { API, type LabEvent } from '../protocol.js';

/** The page's side of the lab API: JSON POSTs with the token as a bearer header, events over SSE. */
export class LabApi {
  readonly #token: string;

  constructor(token: string) {
    this.#token = token;
  }

  /** Posts a request; resolves with the JSON answer, or rejects with the lab's message. */
  async post<T = unknown>(path: string, body: unknown = {}): Promise<T> {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.#token}` },
      body: JSON.stringify(body),
      cache: 'no-store',
    });
    const value = (await response.json().catch(() => ({}))) as { error?: string };
    if (!response.ok) throw new Error(value.error ?? `The lab answered ${response.status}.`);
    return value as T;
  }

  /** Opens the event stream; the browser reconnects on its own after a drop. */
  events(onEvent: (event: LabEvent) => void, onState: (open: boolean) => void): EventSource {
    const source = new EventSource(`${API.events}?token=${encodeURIComponent(this.#token)}`);
    source.addEventListener('message', (message) => onEvent(JSON.parse(message.data) as LabEvent));
    source.addEventListener('open', () => onState(true));
    source.addEventListener('error', () => onState(false));
    return source;
  }
}
