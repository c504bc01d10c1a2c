/** One HTTP request, from whichever server runtime received it (node:http or a fetch handler). */
export interface HttpExchange {
  readonly method: string;
  /** The absolute request URL. */
  readonly url: string;
  header(name: string): string | undefined;
  body(): AsyncIterable<Uint8Array> | null;
  /** Registers what to do when the client goes away before the response ended. */
  onAbort(listener: () => void): void;
  /** The request as a web `Request` (built only when needed: `authenticate` and 2025 sessions). */
  webRequest(body?: Uint8Array): Request;
}

/** How an answer goes back, in whichever runtime. */
export interface HttpResponder {
  json(status: number, body: unknown): void;
  empty(status: number): void;
  /** Starts a 200 `text/event-stream` response; write messages, then `null` to end it. */
  openStream(): (message: unknown | null) => void;
  web(response: Response): Promise<void>;
}
