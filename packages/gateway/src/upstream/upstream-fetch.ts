import {
  type ClientRequestArgs,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createConnection, isIP, type NetConnectOpts, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { type ConnectionOptions, connect as connectTls } from 'node:tls';
import type { FetchLike } from '@modelcontextprotocol/client';

/** Statuses a response has no body with (a `Response` refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);
/**
 * How long a connection may wait unused before it is closed here: under the 5 s after which Node's
 * and uvicorn's servers close one (a server's own `Keep-Alive: timeout` hint, less a second, when
 * shorter), so a request is seldom sent on a connection the server is closing.
 */
const IDLE_MS = 4_000;
/** Requests sent again on another connection when a kept one turned out closed, at most. */
const STALE_RETRIES = 3;

/**
 * The fetch the gateway reaches one HTTP upstream with: the requests the SDK's Streamable HTTP
 * transport makes (`redirect: 'manual'`, since the SDK follows redirects itself; a text body or
 * none) go out on `node:http(s)` over a keep-alive agent of this upstream's own, every other
 * request (an OAuth grant's) to the global fetch. The global fetch (undici's, with its request,
 * response and stream objects) costs every relayed round more CPU, and every held call's open
 * event streams more heap, than `node:http` does for what the transport needs of a fetch (bench
 * (h): about 0.7× the gateway's CPU per round, 94 instead of 122 KB per held call). The gateway's
 * own session transport takes `request` instead, which makes no `Response` at all (32 KB a held
 * call).
 */
export class UpstreamFetch {
  readonly #http = new HttpAgent({ keepAlive: true, timeout: IDLE_MS });
  readonly #https = new HttpsAgent({ keepAlive: true, timeout: IDLE_MS });

  readonly fetch: FetchLike = (input, init) => {
    const body = init?.body;
    const plain =
      body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    const url = new URL(input);
    if (init?.redirect !== 'manual' || !plain || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return fetch(input, init);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const method = (init.method ?? 'GET').toUpperCase();
    const signal = init.signal ?? undefined;
    return this.#send(url, { method, headers, body: body ?? undefined, signal }, false).then((response) =>
      toResponse(response, method),
    );
  };

  /**
   * A request answered as `node:http` gives it: no `Response`, no web stream (the fetch's signal
   * handling and `Readable.toWeb` cost an open event stream a few KB more, and a held call keeps
   * two open). `signal` aborts it until its answer arrives; from then on the caller owns the answer
   * (`destroy` it to stop). Redirects are not followed.
   */
  readonly request = (url: URL, init: UpstreamRequest): Promise<IncomingMessage> =>
    this.#send(url, init, true);

  /** Lets go of the connections kept open (the upstream is closed). */
  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }

  #send(url: URL, init: UpstreamRequest, lean: boolean, retries = STALE_RETRIES): Promise<IncomingMessage> {
    const { method, headers, body, signal } = init;
    const https = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      if (lean && signal?.aborted) return reject(abortError(signal));
      let answered = false;
      const request = (https ? httpsRequest : httpRequest)(
        url,
        {
          method,
          headers,
          // The session's event stream (a GET of the transport's own) lives as long as its session:
          // it gets a connection of its own, made here, not one of the pool, whose listeners keep
          // a copy of the request's options on each socket (about 2 KB a held call).
          ...(lean && method === 'GET'
            ? { createConnection: https ? tlsConnection : tcpConnection, defaultPort: https ? 443 : 80 }
            : { agent: https ? this.#https : this.#http }),
          ...(!lean && signal && { signal }),
        },
        (response) => {
          answered = true;
          if (abort !== undefined) signal?.removeEventListener('abort', abort);
          resolve(response);
        },
      );
      const abort = lean && signal ? () => request.destroy(abortError(signal)) : undefined;
      if (abort !== undefined) signal?.addEventListener('abort', abort, { once: true });
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept connection the server closed as the request went out (it never read it): sent
        // again on another, as Node's documentation advises for keep-alive.
        if (answered) return;
        if (abort !== undefined) signal?.removeEventListener('abort', abort);
        if (request.reusedSocket && retries > 0 && !signal?.aborted && STALE.has(error.code ?? ''))
          return resolve(this.#send(url, init, lean, retries - 1));
        // As the global fetch fails: an abort as itself, anything else as `fetch failed` with its cause.
        reject(error.name === 'AbortError' ? error : new TypeError('fetch failed', { cause: error }));
      });
      request.end(body);
    });
  }
}

/** A request of the gateway's own transport (`UpstreamFetch.request`). */
export interface UpstreamRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array | undefined;
  readonly signal?: AbortSignal | undefined;
}

function tcpConnection(options: ClientRequestArgs): Socket {
  return createConnection(options as NetConnectOpts);
}

/** As the https agent connects: the certificate checked (Node's default) and the host name sent (SNI). */
function tlsConnection(options: ClientRequestArgs): Socket {
  const host = (options.host ?? 'localhost').replace(/^\[|\]$/g, '');
  const tls = options as ConnectionOptions;
  return connectTls(isIP(host) === 0 ? { ...tls, servername: host } : tls);
}

function abortError(signal: AbortSignal): Error {
  return new DOMException('The request was aborted', { name: 'AbortError', cause: signal.reason });
}

/** How a request on a connection the server closed fails. */
const STALE = new Set(['ECONNRESET', 'EPIPE']);

function toResponse(response: IncomingMessage, method: string): Response {
  const status = response.statusCode ?? 502;
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const empty = method === 'HEAD' || NO_BODY.has(status);
  if (empty) response.resume();
  return new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
    status,
    statusText: response.statusMessage ?? '',
    headers,
  });
}
