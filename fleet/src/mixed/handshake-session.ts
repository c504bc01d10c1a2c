import {
  Client,
  type ElicitRequest,
  type ElicitResult,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { TokenUse } from '../token-use.js';

/** What a 2025-era session saw of the balancer. */
export interface SessionRouting {
  /** Requests with the session's id. */
  sessionRequests: number;
  /** Of those, answered by another replica than the one that opened the session. */
  awayFromOwner: number;
  /** Of those, answered with success (2xx): passed on to the session's replica, which served them. */
  awayServed: number;
  /** Sessions opened, by the replica that opened them (the balancer's address). */
  readonly openedOn: Map<string, number>;
}

export interface HandshakeSessionOptions {
  /** The balancer's origin. */
  readonly origin: string;
  /** The bearer token to send now (replicas revoke theirs when they stop). */
  readonly token: () => string;
  readonly clientName: string;
  readonly answer: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  readonly routing: SessionRouting;
  readonly tokenUse: TokenUse;
  /** Told of each HTTP exchange of the session: what it carried, who answered, with what status. */
  readonly seen?: (exchange: SessionExchange) => void;
}

/** One HTTP exchange of a session, as a failed flow's report names it. */
export interface SessionExchange {
  /** e.g. `POST tools/call`, `POST answer`, `GET stream`, `DELETE`. */
  readonly request: string;
  /** The replica that answered (its balancer address), if one did. */
  readonly replica: string | undefined;
  /** The HTTP status, or 0 when no response came. */
  readonly status: number;
}

/** What an exchange carried: the JSON-RPC method, or `answer` for a response to the server. */
function describe(method: string, body: unknown): string {
  if (method !== 'POST') return method === 'GET' ? 'GET stream' : method;
  try {
    const message = JSON.parse(String(body)) as { method?: unknown };
    return `POST ${typeof message.method === 'string' ? message.method : 'answer'}`;
  } catch {
    return 'POST';
  }
}

/**
 * A 2025-era session of the official SDK client (2025-11-25, form elicitation) with Brightgrid
 * through the balancer. Every request carries the token in use at that moment, and each response's
 * `X-Upstream` says which replica served it.
 */
export async function openHandshakeSession(options: HandshakeSessionOptions) {
  let owner: string | undefined;
  const fetchVia = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const authorization = `Bearer ${options.token()}`;
    headers.set('authorization', authorization);
    // Held until the response's head arrives: by then the replica has checked the token.
    const release = options.tokenUse.hold(authorization);
    const request = describe(init?.method ?? 'GET', init?.body);
    const response = await fetch(input, { ...init, headers })
      .catch((error: unknown) => {
        options.seen?.({ request, replica: undefined, status: 0 });
        throw error;
      })
      .finally(release);
    const upstream = (response.headers.get('x-upstream') ?? '').split(',').at(-1)?.trim();
    options.seen?.({ request, replica: upstream || undefined, status: response.status });
    if (!headers.has('mcp-session-id')) {
      if (owner === undefined && upstream && response.ok) {
        owner = upstream;
        options.routing.openedOn.set(upstream, (options.routing.openedOn.get(upstream) ?? 0) + 1);
      }
    } else {
      options.routing.sessionRequests++;
      if (upstream && owner && upstream !== owner && response.status < 500) {
        options.routing.awayFromOwner++;
        if (response.ok) options.routing.awayServed++;
      }
    }
    return response;
  };
  const client = new Client(
    { name: options.clientName, version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, supportedProtocolVersions: ['2025-11-25'] },
  );
  client.setRequestHandler('elicitation/create', (request) => options.answer(request));
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', options.origin), {
    fetch: fetchVia,
    // A stream cut by a replica that died is not resumed here: the flow starts a new session.
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 100,
      maxReconnectionDelay: 100,
      reconnectionDelayGrowFactor: 1,
    },
  });
  client.onerror = () => {}; // failures reach the caller through the call itself
  await client.connect(transport);
  return {
    client,
    /** Ends the session (DELETE, wherever it lands) and the client, never throwing. */
    async end(): Promise<void> {
      await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
    },
  };
}
