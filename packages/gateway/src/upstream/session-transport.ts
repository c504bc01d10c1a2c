import type { IncomingMessage } from 'node:http';
import {
  type FetchLike,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  parseJSONRPCMessage,
  type RequestId,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import type { EventSourceMessage } from 'eventsource-parser';
import { MAX_RESULT_BYTES } from '../leg/limits.js';
import { type EventSink, EventStreamParser, EventTooLargeError } from './event-stream.js';
import { type ChunkSink, FetchAnswer, type HttpAnswer, NodeAnswer } from './http-answer.js';
import type { UpstreamRequest } from './upstream-fetch.js';

/** The longest message taken from an upstream: the largest result the gateway passes on, and its envelope. */
const MAX_MESSAGE_CHARS = MAX_RESULT_BYTES + 64 * 1024;
/** The most read of a body nobody needs (a 202's, an error's) before its connection is dropped instead. */
const MAX_DISCARD_BYTES = 64 * 1024;
/** Same-origin redirects followed for one request, at most. */
const MAX_REDIRECTS = 5;
/** Reconnecting a stream: the first delay, its growth, its ceiling, and failed attempts in a row allowed. */
const FIRST_RETRY_MS = 1_000;
const RETRY_GROWTH = 1.5;
const MAX_RETRY_MS = 30_000;
const MAX_FAILED_RECONNECTS = 2;
/** A session id is visible ASCII (MCP, Streamable HTTP), and no longer than this here. */
const SESSION_ID = /^[\x21-\x7e]{1,1024}$/;
/** Headers the transport sets itself; a message's own headers never replace them. */
const RESERVED = new Set([
  'authorization',
  'dpop',
  'content-type',
  'accept',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'mcp-session-id',
  'last-event-id',
]);

/** Options of {@link SessionTransport}. */
export interface SessionTransportOptions {
  /** Headers for every request (the upstream's configured headers: its credentials). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * How requests are sent on `node:http` (`UpstreamFetch.request`): the leanest way, used unless
   * a `fetch` is given.
   */
  readonly request?: (url: URL, init: UpstreamRequest) => Promise<IncomingMessage>;
  /** How requests are sent otherwise (an OAuth session's fetch); default the global fetch. */
  readonly fetch?: FetchLike;
  /** The longest message taken from the upstream, in characters (default: the largest result the gateway passes on, and its envelope). */
  readonly maxMessageChars?: number;
}

/** What the streams of a transport tell it. */
interface StreamOwner {
  deliver(message: JSONRPCMessage): void;
  warn(error: Error): void;
  retry(ms: number): void;
}

/**
 * One event stream being read: a call's own (a POST's), or the session's standalone GET stream,
 * across its resumptions. A held call keeps two open for as long as its person takes, so this is
 * a class with no closures of its own (see ARCHITECTURE.md, Memory).
 */
class Stream implements EventSink, ChunkSink {
  /** The last event id it carried (it is resumed from there). */
  lastEventId: string | undefined;
  answered = false;
  /** Attempts to reopen it that failed in a row. */
  failed = 0;
  readonly #owner: StreamOwner;
  readonly #parser: EventStreamParser;

  constructor(
    owner: StreamOwner,
    maxChars: number,
    /** The request whose answer comes on it; none for the standalone stream. */
    readonly requestId: RequestId | undefined,
    readonly signal: AbortSignal | undefined,
  ) {
    this.#owner = owner;
    this.#parser = new EventStreamParser(this, maxChars);
  }

  chunk(bytes: Uint8Array): void {
    this.#parser.chunk(bytes);
  }

  /** Ready for the next body (it is resumed). */
  reset(): void {
    this.#parser.reset();
  }

  event(event: EventSourceMessage): void {
    if (event.id) this.lastEventId = event.id;
    if (!event.data || (event.event !== undefined && event.event !== 'message')) return;
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(JSON.parse(event.data));
    } catch (error) {
      this.#owner.warn(
        new Error(
          `The upstream sent an event that is not a JSON-RPC message; it was dropped (${error instanceof Error ? error.name : 'invalid'})`,
          { cause: error },
        ),
      );
      return;
    }
    if (
      this.requestId !== undefined &&
      (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) &&
      message.id === this.requestId
    )
      this.answered = true;
    this.#owner.deliver(message);
  }

  retry(ms: number): void {
    this.#owner.retry(ms);
  }
}

/**
 * The Streamable HTTP client transport of the gateway's 2025-era upstream sessions: the official
 * SDK `Client` runs the protocol over it, as over the SDK's own `StreamableHTTPClientTransport`,
 * but an open event stream costs a few KB here instead of about 40 (a held call keeps two: its
 * POST's and the session's standalone GET stream). It sends each message as a POST (with
 * `mcp-session-id`, `mcp-protocol-version` and the configured headers) and reads a JSON or
 * event-stream answer; opens the standalone GET stream after `notifications/initialized` (a 405
 * means the server has none); resumes a stream that ends unanswered with `Last-Event-ID` when it
 * carried event ids (and the GET stream whenever it ends), honouring the server's `retry`; follows
 * redirects within the origin; and ends the session upstream with `DELETE` on `terminateSession`.
 * What the upstream sends is capped (a message of at most the gateway's largest result); a call
 * whose stream ends without its answer and cannot be resumed fails with an error saying so, at
 * once. Written for the 2025 revisions only: it derives no 2026-07-28 headers from a message.
 *
 * @example
 * const transport = new SessionTransport(new URL('http://127.0.0.1:3000/mcp'), {
 *   headers: { authorization: 'Bearer ...' },
 * });
 * const { sdk } = await connectSdk('http://127.0.0.1:3000/mcp', { era: 'handshake', capabilities: {}, transport });
 */
export class SessionTransport implements Transport {
  readonly hasPerRequestStream = true;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #url: URL;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #send: (url: URL, init: UpstreamRequest) => Promise<HttpAnswer>;
  readonly #maxChars: number;
  #abort: AbortController | undefined;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** The delay the server asked for before a stream is reconnected (`retry:`). */
  #serverRetryMs: number | undefined;
  #standalone: Promise<void> | undefined;
  readonly #owner: StreamOwner = {
    deliver: (message) => this.#deliver(message),
    warn: (error) => this.onerror?.(error),
    retry: (ms) => {
      this.#serverRetryMs = Math.min(ms, MAX_RETRY_MS);
    },
  };

  constructor(url: URL, options: SessionTransportOptions = {}) {
    this.#url = url;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    this.#headers = headers;
    this.#maxChars = options.maxMessageChars ?? MAX_MESSAGE_CHARS;
    const { fetch: viaFetch, request } = options;
    this.#send =
      viaFetch === undefined && request !== undefined
        ? (url, init) => request(url, init).then((message) => new NodeAnswer(message))
        : (url, init) =>
            (viaFetch ?? fetch)(url, { ...init, redirect: 'manual' } as RequestInit).then(
              (response) => new FetchAnswer(response),
            );
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /**
   * Settles once the standalone GET stream is open, refused, or failed to open (at once when the
   * session has not asked for it yet): a server that asks outside a call's own stream asks there.
   */
  get standaloneOpened(): Promise<void> {
    return this.#standalone ?? Promise.resolve();
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  async start(): Promise<void> {
    if (this.#abort !== undefined)
      throw new Error('This transport was started already; a Client starts it on connect.');
    this.#abort = new AbortController();
  }

  async close(): Promise<void> {
    const abort = this.#abort;
    if (abort === undefined || abort.signal.aborted) return;
    abort.abort();
    this.onclose?.();
  }

  /**
   * Sends one message as a POST. A request's answer is read as it comes (JSON, or an event stream
   * with the server's own requests and notifications before it); the promise settles when that
   * stream ends, and fails when it ends without the answer.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#post(message, options).catch((error: Error) => {
      if (options?.requestSignal?.aborted !== true && !this.#closed) this.onerror?.(error);
      throw error;
    });
  }

  /** Ends the session at the upstream (`DELETE`); a server that keeps no sessions may answer 405. */
  async terminateSession(): Promise<void> {
    if (this.#sessionId === undefined) return;
    try {
      const response = await this.#request('DELETE', this.#baseHeaders(), undefined, this.#signal());
      await discard(response);
      if (!ok(response) && response.status !== 405)
        throw httpError(response, SdkErrorCode.ClientHttpFailedToTerminateSession, 'end the session');
      this.#sessionId = undefined;
    } catch (error) {
      this.onerror?.(error as Error);
      throw error;
    }
  }

  get #closed(): boolean {
    return this.#abort?.signal.aborted === true;
  }

  #signal(extra?: AbortSignal): AbortSignal {
    const abort = this.#abort;
    if (abort === undefined)
      throw new SdkError(
        SdkErrorCode.NotConnected,
        'The transport is not started; connect a Client to it first.',
      );
    return extra === undefined ? abort.signal : AbortSignal.any([abort.signal, extra]);
  }

  async #post(message: JSONRPCMessage, options: TransportSendOptions | undefined): Promise<void> {
    if (options?.resumptionToken !== undefined)
      throw new Error('This transport resumes streams by itself; send without a resumptionToken.');
    const initialize = isJSONRPCRequest(message) && message.method === 'initialize';
    const headers = this.#baseHeaders(!initialize);
    for (const [name, value] of Object.entries(options?.headers ?? {}))
      if (!RESERVED.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
    headers['content-type'] = 'application/json';
    headers.accept = 'application/json, text/event-stream';
    const signal = this.#signal(options?.requestSignal);
    return this.#request('POST', headers, JSON.stringify(message), signal).then((response) =>
      this.#answered(message, response, options?.requestSignal),
    );
  }

  /** What a POST's answer means: a session, nothing, JSON messages, or a stream to follow. */
  async #answered(
    message: JSONRPCMessage,
    response: HttpAnswer,
    requestSignal: AbortSignal | undefined,
  ): Promise<void> {
    const initialize = isJSONRPCRequest(message) && message.method === 'initialize';
    if (!ok(response)) {
      await discard(response);
      throw httpError(response, SdkErrorCode.ClientHttpNotImplemented, 'take a message');
    }
    if (initialize) this.#sessionId = sessionIdOf(response);
    const requestId = isJSONRPCRequest(message) ? message.id : undefined;
    if (response.status === 202 || requestId === undefined) {
      await discard(response);
      if ('method' in message && message.method === 'notifications/initialized')
        this.#standalone = this.#openStandalone();
      return;
    }
    const type = mediaType(response.header('content-type'));
    if (type === 'application/json') {
      for (const item of messagesOf(await readText(response, this.#maxChars))) this.#deliver(item);
      return;
    }
    if (type !== 'text/event-stream') {
      await discard(response);
      throw new SdkError(
        SdkErrorCode.ClientHttpUnexpectedContent,
        `The upstream answered a request with content type ${JSON.stringify(type ?? 'none')}; an MCP server answers with application/json or text/event-stream, so check that the URL is its MCP endpoint.`,
        { contentType: type },
      );
    }
    // Returned, not awaited: the promise chain holds less than a suspended frame while a call waits.
    return this.#follow(new Stream(this.#owner, this.#maxChars, requestId, requestSignal), response);
  }

  /**
   * Reads one body of `stream`, then resumes the stream while it must: the standalone stream
   * always, a call's own stream when it carried event ids and its answer has not come. Settles
   * when the stream is over; fails when a call's stream can no longer be resumed (its request
   * with it), or the upstream sent too much at once.
   */
  #follow(stream: Stream, body: HttpAnswer): Promise<void> {
    return body.read(stream).then(
      () => this.#ended(stream, undefined),
      (error: unknown) => this.#ended(stream, error),
    );
  }

  #over(stream: Stream): boolean {
    return stream.answered || this.#closed || stream.signal?.aborted === true;
  }

  #ended(stream: Stream, broke: unknown): Promise<void> | undefined {
    stream.reset();
    if (this.#over(stream)) return undefined;
    if (broke instanceof EventTooLargeError) throw broke;
    const cause = broke === undefined ? '' : ` (${broke instanceof Error ? broke.message : String(broke)})`;
    if (stream.requestId !== undefined && stream.lastEventId === undefined)
      throw new Error(
        `The upstream's event stream for request ${String(stream.requestId)} ended before its answer${cause || ' without an error'}, and named no event to resume it from; the call cannot complete, call again.`,
        { cause: broke },
      );
    if (broke !== undefined)
      this.onerror?.(new Error(`The upstream's event stream broke${cause}; reopening it.`, { cause: broke }));
    stream.failed = 0;
    return this.#resume(stream);
  }

  #resume(stream: Stream): Promise<void> {
    if (stream.failed >= MAX_FAILED_RECONNECTS)
      return Promise.reject(
        new Error(
          `The upstream's event stream could not be reopened (${MAX_FAILED_RECONNECTS} attempts failed); call again.`,
        ),
      );
    return this.#wait(this.#retryDelay(stream.failed)).then(() => this.#reopen(stream));
  }

  #reopen(stream: Stream): Promise<void> | undefined {
    if (this.#over(stream)) return undefined;
    return this.#get(stream.lastEventId, stream.signal).then(
      (body) => {
        if (body !== undefined) return this.#follow(stream, body);
        // 405: the server has no GET stream; a call's own stream cannot be resumed without one.
        if (stream.requestId === undefined) return undefined;
        throw new Error(
          `The upstream's event stream for request ${String(stream.requestId)} ended before its answer, and the upstream refuses the GET that resumes it (405); the call cannot complete, call again.`,
        );
      },
      (error: Error) => {
        if (this.#over(stream)) return undefined;
        stream.failed++;
        this.onerror?.(error);
        return this.#resume(stream);
      },
    );
  }

  /** Opens the standalone GET stream and follows it; the promise settles once it is open (or not). */
  #openStandalone(): Promise<void> {
    const opening = this.#get(undefined, undefined);
    opening
      .then(
        (body) => body && this.#follow(new Stream(this.#owner, this.#maxChars, undefined, undefined), body),
      )
      .catch((error: Error) => {
        if (!this.#closed) this.onerror?.(error);
      });
    return opening.then(
      () => undefined,
      () => undefined,
    );
  }

  /** A GET for the session's event stream (from `lastEventId` when resuming); none if the server has none (405). */
  async #get(
    lastEventId: string | undefined,
    requestSignal: AbortSignal | undefined,
  ): Promise<HttpAnswer | undefined> {
    const headers = this.#baseHeaders();
    headers.accept = 'text/event-stream';
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const response = await this.#request('GET', headers, undefined, this.#signal(requestSignal));
    if (response.status === 405) {
      await discard(response);
      return undefined;
    }
    if (!ok(response)) {
      await discard(response);
      throw httpError(response, SdkErrorCode.ClientHttpFailedToOpenStream, 'open its event stream');
    }
    if (mediaType(response.header('content-type')) !== 'text/event-stream') {
      await discard(response);
      throw new SdkError(
        SdkErrorCode.ClientHttpUnexpectedContent,
        'The upstream answered the GET for its event stream with something other than text/event-stream; check that the URL is its MCP endpoint.',
      );
    }
    return response;
  }

  /**
   * Hands a message to the client. An answer goes a microtask later: the SDK's `Protocol` runs a
   * notification's handler a microtask after it arrives but settles an answer at once, and every
   * event of a chunk arrives here at once, so a call's progress and logs sent before its answer
   * would otherwise reach a call that is over (the SDK's own transport yields between events).
   */
  #deliver(message: JSONRPCMessage): void {
    if (this.#closed) return;
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))
      queueMicrotask(() => {
        if (!this.#closed) this.onmessage?.(message);
      });
    else this.onmessage?.(message);
  }

  #baseHeaders(withSession = true): Record<string, string> {
    const headers: Record<string, string> = { ...this.#headers };
    if (withSession && this.#sessionId !== undefined) headers['mcp-session-id'] = this.#sessionId;
    if (this.#protocolVersion !== undefined) headers['mcp-protocol-version'] = this.#protocolVersion;
    return headers;
  }

  /** One request, following redirects that stay within the origin and keep the method. */
  async #request(
    method: 'GET' | 'POST' | 'DELETE',
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ): Promise<HttpAnswer> {
    let url = this.#url;
    for (let followed = 0; ; followed++) {
      const response = await this.#send(url, {
        method,
        headers,
        ...(body !== undefined && { body }),
        signal,
      });
      const target = redirectTarget(url, response);
      if (target === undefined) return response;
      await discard(response);
      const keepsMethod = method === 'GET' || response.status === 307 || response.status === 308;
      if (!keepsMethod || !sameOrigin(url, target) || followed === MAX_REDIRECTS)
        throw new SdkHttpError(
          SdkErrorCode.ClientHttpNotImplemented,
          `The upstream redirected ${method} to ${target.origin}${target.pathname}, which the gateway does not follow (another origin, a changed method, or more than ${MAX_REDIRECTS} redirects); put that URL in the upstream's config if it is the intended server.`,
          { status: response.status, statusText: response.statusText },
        );
      url = target;
    }
  }

  #retryDelay(failed: number): number {
    return this.#serverRetryMs ?? Math.min(FIRST_RETRY_MS * RETRY_GROWTH ** failed, MAX_RETRY_MS);
  }

  /** Resolves after `ms`, or at once when the transport closes. */
  #wait(ms: number): Promise<void> {
    const signal = this.#signal();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** The JSON-RPC messages of a JSON answer (one, or a batch). */
function messagesOf(text: string): JSONRPCMessage[] {
  try {
    const data: unknown = JSON.parse(text);
    return (Array.isArray(data) ? data : [data]).map((item) => parseJSONRPCMessage(item));
  } catch (error) {
    throw new SdkError(
      SdkErrorCode.ClientHttpUnexpectedContent,
      `The upstream answered with a JSON body that is not a JSON-RPC message (${error instanceof Error ? error.name : 'invalid'}); this is a server bug, report it to its authors.`,
    );
  }
}

/** The session id an `initialize` answer named, checked: it goes back in every request's headers. */
function sessionIdOf(response: HttpAnswer): string | undefined {
  const id = response.header('mcp-session-id');
  if (id === undefined) return undefined;
  if (!SESSION_ID.test(id))
    throw new SdkError(
      SdkErrorCode.ClientHttpUnexpectedContent,
      'The upstream named a session id that is not 1 to 1,024 visible ASCII characters (MCP requires visible ASCII); the session was not used.',
    );
  return id;
}

function ok(response: HttpAnswer): boolean {
  return response.status >= 200 && response.status < 300;
}

function httpError(response: HttpAnswer, code: SdkErrorCode, what: string): SdkHttpError {
  const status = response.status;
  const fix =
    status === 401 || status === 403
      ? "check the upstream's headers or oauth in the gateway's config"
      : status === 404
        ? 'the upstream no longer knows this session (it restarted or ended it); call again'
        : 'check that the URL is its MCP endpoint and that it is running';
  return new SdkHttpError(
    code,
    `The upstream refused to ${what} with HTTP ${status}${response.statusText ? ` ${oneLine(response.statusText)}` : ''}; ${fix}.`,
    { status, statusText: response.statusText },
  );
}

/** A status line's reason as the upstream sent it, made safe to show: one short line. */
function oneLine(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 100);
}

function redirectTarget(url: URL, response: HttpAnswer): URL | undefined {
  if (![301, 302, 303, 307, 308].includes(response.status)) return undefined;
  const location = response.header('location');
  if (location === undefined) return undefined;
  try {
    return new URL(location, url);
  } catch {
    return undefined;
  }
}

function sameOrigin(from: URL, to: URL): boolean {
  return from.origin === to.origin && to.username === from.username && to.password === from.password;
}

function mediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const type = header.split(';', 1)[0]!.trim().toLowerCase();
  return type === '' ? undefined : type;
}

/** A body's text, refused past `maxBytes` bytes (its connection dropped then). */
async function readText(response: HttpAnswer, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  await response.read({
    chunk(bytes) {
      size += bytes.byteLength;
      if (size > maxBytes)
        throw new Error(
          `the upstream sent a body of more than ${maxBytes} bytes (the most the gateway reads of one message); it was dropped, so shorten what the upstream sends at once`,
        );
      chunks.push(bytes);
    },
  });
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a body nobody needs, so its connection can be kept; one too long is dropped with its connection. */
async function discard(response: HttpAnswer): Promise<void> {
  await readText(response, MAX_DISCARD_BYTES).catch(() => {});
}
