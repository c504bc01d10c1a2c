/** What the guard looks at in a request. */
export interface GuardedRequest {
  readonly method: string;
  readonly host: string | undefined;
  readonly origin: string | undefined;
}

/** A refusal: the HTTP status and a message that says what to do instead. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
}

/** The host names a browser on this computer may use to reach the lab. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The `Host` values the lab answers to: a loopback name with the lab's port. */
export function allowedHosts(port: number, extra: readonly string[] = []): string[] {
  return [...LOOPBACK_NAMES, ...extra].map((name) => `${name}:${port}`);
}

/**
 * Decides whether a request may reach the lab at all. `Host` must name this computer and the lab's
 * port (a page on another site that rebinds its DNS name to 127.0.0.1 is refused). `Origin`, when
 * sent, must be the lab itself; a request that changes anything must send it.
 */
export function checkRequest(request: GuardedRequest, hosts: readonly string[]): Refusal | undefined {
  const host = request.host?.toLowerCase();
  if (host === undefined || !hosts.includes(host)) {
    return {
      status: 421,
      message: `This lab answers only at ${hosts.map((item) => `http://${item}`).join(' or ')}; open the URL it printed.`,
    };
  }
  const origin = request.origin?.toLowerCase();
  const safe = request.method === 'GET' || request.method === 'HEAD';
  if (origin === undefined ? !safe : !hosts.some((item) => origin === `http://${item}`)) {
    return {
      status: 403,
      message: 'Requests to the lab must come from the lab page itself; open the URL the lab printed.',
    };
  }
  return undefined;
}
