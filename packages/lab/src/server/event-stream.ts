import type { ServerResponse } from 'node:http';
import type { LabEvent } from '../protocol.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** How often an idle stream gets a comment line, so proxies and browsers keep it open. */
const HEARTBEAT_MS = 20_000;

/** The Server-Sent Events streams of the open lab pages. */
export class EventStream {
  readonly #pages = new Set<ServerResponse>();
  readonly #heartbeat: NodeJS.Timeout;
  readonly #opened: (() => void)[] = [];

  constructor() {
    this.#heartbeat = setInterval(() => this.#write(': ping\n\n'), HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** Starts a stream for one page, beginning with `first` (the current state). */
  open(response: ServerResponse, first: LabEvent): void {
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    });
    response.write(`retry: 1000\n${frame(first)}`);
    this.#pages.add(response);
    response.on('close', () => this.#pages.delete(response));
    for (const listener of this.#opened) listener();
  }

  /** Calls `listener` each time a page opens its stream (a person is looking at the lab). */
  onOpen(listener: () => void): void {
    this.#opened.push(listener);
  }

  send(event: LabEvent): void {
    this.#write(frame(event));
  }

  get size(): number {
    return this.#pages.size;
  }

  close(): void {
    clearInterval(this.#heartbeat);
    for (const page of this.#pages) page.end();
    this.#pages.clear();
  }

  #write(text: string): void {
    for (const page of this.#pages) page.write(text);
  }
}

function frame(event: LabEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}
