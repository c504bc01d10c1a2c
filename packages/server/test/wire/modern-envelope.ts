/** The 2026-07-28 request envelope, byte for byte as a modern client sends it. */
export const MODERN = '2026-07-28';

export type Capabilities = Record<string, unknown>;

/** Capabilities a client may declare on one request. */
export const CAPABILITIES = {
  none: {},
  formOnly: { elicitation: { form: {} } },
  urlOnly: { elicitation: { url: {} } },
  formAndUrl: { elicitation: { form: {}, url: {} } },
  /** No elicitation, but it carries a parked call's resume token back (as Parley's client does). */
  resumes: { extensions: { 'dev.parley/resume': {} } },
} as const satisfies Record<string, Capabilities>;

/** The `_meta` every 2026-07-28 request carries. */
export function modernMeta(capabilities: Capabilities): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'parley-e2e', version: '1.0.0' },
  };
}

/** The resume token a parked call's result names (in its `_meta`), or `undefined`. */
export function resumeTokenOf(result: Record<string, unknown> | undefined): string | undefined {
  const meta = result?._meta as Record<string, unknown> | undefined;
  const token = meta?.['dev.parley/resume'];
  return typeof token === 'string' ? token : undefined;
}

/** A round that carries a resume token back (with the full modern `_meta` for `capabilities`). */
export function resuming(
  token: string | undefined,
  capabilities: Capabilities = CAPABILITIES.resumes,
): RoundInput {
  return token === undefined ? {} : { _meta: { ...modernMeta(capabilities), 'dev.parley/resume': token } };
}

export interface JsonRpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A JSON-RPC response as it came off the wire. */
export interface JsonRpcResponse {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly result?: Record<string, unknown>;
  readonly error?: JsonRpcError;
}

/** One answer: the JSON-RPC response, and the HTTP status when it came over HTTP. */
export interface ModernReply {
  readonly status: number | undefined;
  readonly message: JsonRpcResponse;
}

export interface SendOptions {
  readonly capabilities?: Capabilities;
  /** Sent as `Authorization: Bearer <user>` over HTTP (stdio has no auth; its user is fixed per process). */
  readonly user?: string;
}

/** A 2026-07-28 client connection that sends exactly what the test says. */
export interface ModernWire {
  /** Sends one request with a fresh id and a full modern `_meta`. */
  request(method: string, params: Record<string, unknown>, options?: SendOptions): Promise<ModernReply>;
  /** Sends `message` as is (it must carry an `id`) and waits for its response. */
  raw(message: Record<string, unknown>, options?: SendOptions): Promise<ModernReply>;
  /** What the server process wrote to stderr so far (its log). */
  log(): string;
  close(): Promise<void>;
}

/** What a retry carries besides the original arguments. */
export interface RoundInput {
  readonly inputResponses?: unknown;
  readonly requestState?: unknown;
  /** Replaces the request's `_meta` (e.g. to add `traceparent`). */
  readonly _meta?: Record<string, unknown>;
}

/** A `tools/call` round: the original name and arguments, plus this round's answers and state. */
export function callTool(
  wire: ModernWire,
  name: string,
  args: Record<string, unknown>,
  round: RoundInput = {},
  options: SendOptions = {},
): Promise<ModernReply> {
  return wire.request('tools/call', { name, arguments: args, ...round }, options);
}
