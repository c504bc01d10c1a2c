import type { IncomingMessage } from 'node:http';
import {
  type FetchLike,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { MAX_RESULT_BYTES } from '../leg/limits.js';
import {
  discard,
  httpError,
  mediaType,
  messagesOf,
  ok,
  readText,
  redirectTarget,
  sameOrigin,
  sessionIdOf,
} from './answer-reading.js';
import { EventTooLargeError } from './event-stream.js';
import { FetchAnswer, type HttpAnswer, NodeAnswer } from './http-answer.js';
import { isRequest, modernHeaders } from './modern-headers.js';
import { SessionStream, type StreamOwner } from './session-stream.js';
import type { UpstreamRequest } from './upstream-fetch.js';

/** The longest message taken from an upstream: the largest result the gateway passes on, and its envelope. */
const MAX_MESSAGE_CHARS = MAX_RESULT_BYTES + 64 * 1024;
/** The most read of a 2026-07-28 refusal's body (its JSON-RPC error); a longer one is no answer. */
const MAX_REFUSAL_CHARS = 64 * 1024;
/** Same-origin redirects followed for one request, at most. */
const MAX_REDIRECTS = 5;
/** Reconnecting a stream: the first delay, its growth, its ceiling, and failed attempts in a row allowed. */
const FIRST_RETRY_MS = 1_000;
const RETRY_GROWTH = 1.5;
const MAX_RETRY_MS = 30_000;
const MAX_FAILED_RECONNECTS = 2;
/** The shortest delay a server's `retry` may ask for (a stream ended at once is not asked for again in a loop). */
const MIN_RETRY_MS = 100;
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
  /**
   * The longest message taken from the upstream, in characters (default: the largest result the
   * gateway passes on, and its envelope).
   */
  readonly maxMessageChars?: number;
}

/**
 * The Streamable HTTP client transport of the gateway's upstream connections: the official
 * SDK `Client` runs the protocol over it, as over the SDK's own `StreamableHTTPClientTransport`,
 * but an open event stream costs a few KB here instead of about 40 (a held call keeps two: its
 * POST's and the session's standalone GET stream). It sends each message as a POST (with
 * `mcp-session-id`, `mcp-protocol-version` and the configured headers) and reads a JSON or
 * event-stream answer; opens the standalone GET stream after `notifications/initialized` (a 405
 * means the server has none); resumes a stream that ends unanswered with `Last-Event-ID` when it
 * carried event ids (and the GET stream whenever it ends), honouring the server's `retry` (0.1 to 30 s); follows
 * redirects within the origin; and ends the session upstream with `DELETE` on `terminateSession`.
 * What the upstream sends is capped (a message of at most the gateway's largest result); a call
 * whose stream ends without its answer and cannot be resumed fails with an error saying so, at
 * once. A 2026-07-28 request (one whose `_meta` claims a revision) also carries the headers its body
 * derives (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), and a 400 whose body is the JSON-RPC
 * error for it is delivered as that error; the upstream's 2026-07-28 control connection runs on it
 * too (a relayed round then costs no `Response`, web stream or header object on the way).
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
  /** The streams open or being reopened (closing the transport closes them). */
  readonly #streams = new Set<SessionStream>();
  readonly #owner: StreamOwner = {
    deliver: (message) => this.#deliver(message),
    warn: (error) => {
      if (!this.#closed) this.onerror?.(error);
    },
    retry: (ms) => {
      this.#serverRetryMs = Math.min(Math.max(ms, MIN_RETRY_MS), MAX_RETRY_MS);
    },
    ended: (stream, error) => this.#ended(stream, error),
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
    for (const stream of this.#streams) stream.body?.close();
    this.onclose?.();
  }

  /**
   * Sends one message as a POST. A request's answer is read as it comes (JSON, or an event stream
   * with the server's own requests and notifications before it); the promise settles when that
   * stream is over, and fails when it ends without the answer and cannot be resumed.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        if (options?.requestSignal?.aborted !== true && !this.#closed) this.onerror?.(error);
        reject(error);
      };
      this.#post(message, options, resolve, fail).catch(fail);
    });
  }

  /**
   * Sends as {@link send} does, stopped by `signal` alone, not also by the transport's close: for a
   * caller that stops its own requests when it closes the transport (`DirectLegs`), which saves
   * joining two signals per request.
   */
  sendStoppedBy(message: JSONRPCMessage, signal: AbortSignal): Promise<void> {
    if (this.#abort === undefined) return this.send(message, { requestSignal: signal });
    return new Promise<void>((resolve, reject) => {
      this.#post(message, { requestSignal: signal }, resolve, reject, signal).catch(reject);
    });
  }

  /** Ends the session at the upstream (`DELETE`); a server that keeps no sessions may answer 405. */
  async terminateSession(): Promise<void> {
    if (this.#sessionId === undefined) return;
    try {
      const answer = await this.#request('DELETE', this.#baseHeaders(), undefined, this.#signal());
      await discard(answer);
      if (!ok(answer) && answer.status !== 405)
        throw httpError(answer, SdkErrorCode.ClientHttpFailedToTerminateSession, 'end the session');
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

  /** POSTs `message` and reads what answers it: nothing, JSON messages, or a stream followed until it is over. */
  async #post(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
    resolve: () => void,
    reject: (error: Error) => void,
    alone?: AbortSignal,
  ): Promise<void> {
    if (options?.resumptionToken !== undefined)
      throw new Error('This transport resumes streams by itself; send without a resumptionToken.');
    const initialize = isRequest(message) && message.method === 'initialize';
    const headers = this.#baseHeaders(!initialize);
    const modern = modernHeaders(message);
    if (modern !== undefined) Object.assign(headers, modern);
    for (const [name, value] of Object.entries(options?.headers ?? {}))
      if (!RESERVED.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
    headers['content-type'] = 'application/json';
    headers.accept = 'application/json, text/event-stream';
    const signal = alone ?? this.#signal(options?.requestSignal);
    const answer = await this.#request('POST', headers, JSON.stringify(message), signal);
    const requestId = isRequest(message) ? message.id : undefined;
    if (!ok(answer)) {
      // 2026-07-28: a server refuses a request it cannot take with 400 and the JSON-RPC error as body.
      if (answer.status === 400 && modern !== undefined && requestId !== undefined) {
        const refusal = errorAnswering(requestId, await readText(answer, MAX_REFUSAL_CHARS).catch(() => ''));
        if (refusal !== undefined) {
          this.#deliver(refusal);
          return resolve();
        }
      } else await discard(answer);
      throw httpError(answer, SdkErrorCode.ClientHttpNotImplemented, 'take a message');
    }
    if (initialize) this.#sessionId = sessionIdOf(answer);
    if (answer.status === 202 || requestId === undefined) {
      await discard(answer);
      if ('method' in message && message.method === 'notifications/initialized')
        this.#standalone = this.#openStandalone();
      return resolve();
    }
    const type = mediaType(answer.header('content-type'));
    if (type === 'application/json') {
      for (const item of messagesOf(await readText(answer, this.#maxChars))) this.#deliver(item);
      return resolve();
    }
    if (type !== 'text/event-stream') {
      await discard(answer);
      throw new SdkError(
        SdkErrorCode.ClientHttpUnexpectedContent,
        `The upstream answered a request with content type ${JSON.stringify(type ?? 'none')}; an MCP server answers with application/json or text/event-stream, so check that the URL is its MCP endpoint.`,
        { contentType: type },
      );
    }
    const settle = { resolve, reject };
    this.#read(
      new SessionStream(this.#owner, this.#maxChars, requestId, options?.requestSignal, settle),
      answer,
    );
  }

  /** Reads `body` as `stream`'s next; the stream tells `#ended` when it ends. */
  #read(stream: SessionStream, body: HttpAnswer): void {
    if (!this.#streams.has(stream)) {
      this.#streams.add(stream);
      // Modern requests only: the SDK closes a call's stream to cancel it.
      stream.signal?.addEventListener('abort', () => stream.body?.close(), { once: true });
    }
    stream.read(body);
  }

  #over(stream: SessionStream): boolean {
    return stream.answered || this.#closed || stream.signal?.aborted === true;
  }

  /**
   * A body of `stream` ended: the stream is over (answered, or closed here), or it is resumed (the
   * standalone stream always; a call's own stream when it carried event ids), or it fails (the
   * upstream sent too much at once, or a call's stream cannot be resumed).
   */
  #ended(stream: SessionStream, broke: unknown): void {
    const failure = this.#over(stream) ? undefined : this.#endFailure(stream, broke);
    if (this.#over(stream) || failure !== undefined) this.#finish(stream, failure);
    else {
      if (broke !== undefined)
        this.#owner.warn(
          new Error(`The upstream's event stream broke (${messageOf(broke)}); reopening it.`, {
            cause: broke,
          }),
        );
      stream.failed = 0;
      this.#resume(stream);
    }
  }

  /** Why a stream that ended, not over, cannot be resumed; `undefined` when it can. */
  #endFailure(stream: SessionStream, broke: unknown): Error | undefined {
    if (broke instanceof EventTooLargeError) return broke;
    if (stream.requestId === undefined || stream.lastEventId !== undefined) return undefined;
    return new Error(
      `The upstream's event stream for request ${String(stream.requestId)} ended before its answer (${broke === undefined ? 'no error' : messageOf(broke)}), and named no event to resume it from; the call cannot complete, call again.`,
      { cause: broke },
    );
  }

  #finish(stream: SessionStream, error?: Error): void {
    this.#streams.delete(stream);
    if (error === undefined) stream.done();
    else stream.fail(error);
  }

  #resume(stream: SessionStream): void {
    if (stream.failed >= MAX_FAILED_RECONNECTS)
      this.#finish(
        stream,
        new Error(
          `The upstream's event stream could not be reopened (${MAX_FAILED_RECONNECTS} attempts failed); call again.`,
        ),
      );
    else void this.#wait(this.#retryDelay(stream.failed)).then(() => this.#reopen(stream));
  }

  #reopen(stream: SessionStream): void {
    if (this.#over(stream)) {
      this.#finish(stream);
      return;
    }
    this.#get(stream.lastEventId, stream.signal).then(
      (body) => {
        if (body !== undefined) this.#read(stream, body);
        // 405: the server has no GET stream; a call's own stream cannot be resumed without one.
        else if (stream.requestId === undefined) this.#finish(stream);
        else
          this.#finish(
            stream,
            new Error(
              `The upstream's event stream for request ${String(stream.requestId)} ended before its answer, and the upstream refuses the GET that resumes it (405); the call cannot complete, call again.`,
            ),
          );
      },
      (error: Error) => {
        if (this.#over(stream)) this.#finish(stream);
        else {
          stream.failed++;
          this.#owner.warn(error);
          this.#resume(stream);
        }
      },
    );
  }

  /** Opens the standalone GET stream and follows it; the promise settles once it is open (or not). */
  #openStandalone(): Promise<void> {
    const opening = this.#get(undefined, undefined);
    opening.then(
      (body) => {
        if (body !== undefined)
          this.#read(new SessionStream(this.#owner, this.#maxChars, undefined, undefined), body);
      },
      (error: Error) => this.#owner.warn(error),
    );
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
    const answer = await this.#request('GET', headers, undefined, this.#signal(requestSignal));
    if (answer.status === 405) {
      await discard(answer);
      return undefined;
    }
    if (!ok(answer)) {
      await discard(answer);
      throw httpError(answer, SdkErrorCode.ClientHttpFailedToOpenStream, 'open its event stream');
    }
    if (mediaType(answer.header('content-type')) !== 'text/event-stream') {
      await discard(answer);
      throw new SdkError(
        SdkErrorCode.ClientHttpUnexpectedContent,
        'The upstream answered the GET for its event stream with something other than text/event-stream; check that the URL is its MCP endpoint.',
      );
    }
    return answer;
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
      const answer = await this.#send(url, { method, headers, ...(body !== undefined && { body }), signal });
      const target = redirectTarget(url, answer);
      if (target === undefined) return answer;
      await discard(answer);
      const keepsMethod = method === 'GET' || answer.status === 307 || answer.status === 308;
      if (!keepsMethod || !sameOrigin(url, target) || followed === MAX_REDIRECTS)
        throw new SdkHttpError(
          SdkErrorCode.ClientHttpNotImplemented,
          `The upstream redirected ${method} to ${target.origin}${target.pathname}, which the gateway does not follow (another origin, a changed method, or more than ${MAX_REDIRECTS} redirects); put that URL in the upstream's config if it is the intended server.`,
          { status: answer.status, statusText: answer.statusText },
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

/**
 * The transport of an HTTP upstream connection: its configured headers, sent on `node:http`
 * directly when `request` is given (no sign-in, no fetch of the caller's), else through `fetch`.
 */
export function httpTransport(
  url: string,
  options: Pick<SessionTransportOptions, 'headers' | 'fetch' | 'request'>,
): SessionTransport {
  return new SessionTransport(new URL(url), {
    ...(options.headers !== undefined && { headers: options.headers }),
    ...(options.request !== undefined
      ? { request: options.request }
      : options.fetch !== undefined && { fetch: options.fetch }),
  });
}

/** The JSON-RPC error a refusal's body holds for request `id`, if it holds one. */
function errorAnswering(id: RequestId, body: string): JSONRPCMessage | undefined {
  try {
    const [message] = messagesOf(body);
    return message !== undefined && isJSONRPCErrorResponse(message) && message.id === id
      ? message
      : undefined;
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
