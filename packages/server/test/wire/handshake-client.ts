import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
  isJSONRPCRequest,
  type JSONRPCRequest,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { childEnv, FIXTURE_SCRIPT, type FixtureEnv } from './fixture-env.js';

/** Where the handshake client connects: a stdio fixture it spawns, or a running HTTP endpoint. */
export type HandshakeTarget =
  | { readonly stdio: FixtureEnv }
  | { readonly url: string; readonly user?: string };

export interface HandshakeOptions {
  readonly capabilities: ClientCapabilities;
  /** The 2025 revision the client offers in `initialize`. Default 2025-11-25. */
  readonly protocolVersion?: '2025-06-18' | '2025-11-25';
  /** Answers each `elicitation/create` (only registered when the client declares elicitation). */
  readonly answer?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  /**
   * Sends whatever `answer` returns, unchecked, the way clients outside TypeScript do (FastMCP's
   * Python client sends `null` for an empty optional field); the SDK client would refuse it.
   */
  readonly unchecked?: boolean;
}

export interface HandshakeConnection {
  readonly client: Client;
  /** The session id the server issued (HTTP only). */
  readonly sessionId: string | undefined;
  /** Every request the server sent this client, as it arrived on the wire (before any validation). */
  readonly received: JSONRPCRequest[];
  /** Calls a tool and returns its result (handshake era: never an input_required result). */
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * Connects the official SDK client (2.4.0) the 2025 way: `initialize` with the given capabilities,
 * then questions arrive as real `elicitation/create` requests over the session.
 */
export async function connectHandshake(
  target: HandshakeTarget,
  options: HandshakeOptions,
): Promise<HandshakeConnection> {
  const client = new Client(
    { name: 'parley-e2e-handshake', version: '1.0.0' },
    {
      capabilities: options.capabilities,
      supportedProtocolVersions: [options.protocolVersion ?? '2025-11-25'],
    },
  );
  if (options.capabilities.elicitation && options.answer) {
    const answer = options.answer;
    if (options.unchecked) {
      client.fallbackRequestHandler = async (request) => answer(request as unknown as ElicitRequest) as never;
    } else {
      client.setRequestHandler('elicitation/create', (request) => answer(request));
    }
  }
  const transport: Transport =
    'stdio' in target
      ? new StdioClientTransport({
          command: process.execPath,
          args: [FIXTURE_SCRIPT],
          env: childEnv({ ...target.stdio, PARLEY_FIXTURE_TRANSPORT: 'stdio' }) as Record<string, string>,
          stderr: 'pipe',
        })
      : new StreamableHTTPClientTransport(new URL(target.url), {
          ...(target.user !== undefined && {
            requestInit: { headers: { authorization: `Bearer ${target.user}` } },
          }),
        });
  await client.connect(transport);
  const received: JSONRPCRequest[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, ...rest) => {
    if (isJSONRPCRequest(message)) received.push(message);
    deliver?.call(transport, message, ...rest);
  };
  return {
    client,
    get sessionId() {
      return transport.sessionId;
    },
    received,
    callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}
