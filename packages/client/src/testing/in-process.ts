import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * The one thing the test client needs from a server: its MCP endpoint as a web-standard fetch
 * handler. A `ParleyServer` (the result of `createServer()`) has it as `server.endpoint()`; so can
 * any server that serves MCP over Streamable HTTP through a `(Request) => Promise<Response>`.
 */
export interface InProcessServer<EndpointOptions = never> {
  endpoint(options?: EndpointOptions): InProcessEndpoint;
}

/** A served endpoint: answers one request at a time, and ends its sessions on `close()`. */
export interface InProcessEndpoint {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The address the in-process client claims to reach. Nothing listens there: every request goes
 * straight to the endpoint's fetch handler. A loopback name passes the endpoint's default Host check.
 */
export const IN_PROCESS_URL = new URL('http://localhost/mcp');

/**
 * A fetch that hands each request to `endpoint` in this process. A request built in JavaScript has
 * no Host header (the network layer adds it), so this adds the one a real client would send.
 */
export function inProcessFetch(endpoint: InProcessEndpoint): FetchLike {
  return async (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    if (!headers.has('host')) headers.set('host', new URL(request.url).host);
    return endpoint.fetch(new Request(request, { headers }));
  };
}
