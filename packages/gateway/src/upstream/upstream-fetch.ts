import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
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
 * (h): about 0.7× the gateway's CPU per round, 94 instead of 122 KB per held call).
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
    return this.#send(url, init, body ?? undefined);
  };

  /** Lets go of the connections kept open (the upstream is closed). */
  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }

  #send(
    url: URL,
    init: RequestInit,
    body: string | Uint8Array | undefined,
    retries = STALE_RETRIES,
  ): Promise<Response> {
    const method = (init.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const https = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      let answered = false;
      const request = (https ? httpsRequest : httpRequest)(
        url,
        {
          method,
          headers,
          agent: https ? this.#https : this.#http,
          ...(init.signal && { signal: init.signal }),
        },
        (response) => {
          answered = true;
          resolve(toResponse(response, method));
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept connection the server closed as the request went out (it never read it): sent
        // again on another, as Node's documentation advises for keep-alive.
        if (answered) return;
        if (request.reusedSocket && retries > 0 && !init.signal?.aborted && STALE.has(error.code ?? ''))
          return resolve(this.#send(url, init, body, retries - 1));
        // As the global fetch fails: an abort as itself, anything else as `fetch failed` with its cause.
        reject(error.name === 'AbortError' ? error : new TypeError('fetch failed', { cause: error }));
      });
      request.end(body);
    });
  }
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
