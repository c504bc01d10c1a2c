/** A 2026-07-28 tools/call as the hostile tests send it: any params, any user. */
export interface CallSpec {
  readonly tool: string;
  readonly args?: unknown;
  readonly user?: string;
  /** Anything: the tests put hostile values here. */
  readonly inputResponses?: unknown;
  readonly requestState?: unknown;
}

let nextId = 1;

/** The JSON body of a 2026-07-28 tools/call. */
export function callBody(spec: CallSpec): string {
  const params: Record<string, unknown> = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    },
    name: spec.tool,
    arguments: spec.args ?? {},
  };
  if (spec.inputResponses !== undefined) params.inputResponses = spec.inputResponses;
  if (spec.requestState !== undefined) params.requestState = spec.requestState;
  return JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params });
}

/** The headers of a 2026-07-28 tools/call (over loopback: the Host the endpoint expects). */
export function callHeaders(spec: Pick<CallSpec, 'tool' | 'user'>): Record<string, string> {
  return {
    host: '127.0.0.1',
    'content-type': 'application/json',
    accept: 'application/json',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': spec.tool,
    ...(spec.user !== undefined && { authorization: `Bearer ${spec.user}` }),
  };
}

/** What came back, read as JSON-RPC. */
export interface Reply {
  readonly status: number;
  readonly error?: { code: number; message: string };
  readonly result?: {
    resultType?: string;
    requestState?: string;
    isError?: boolean;
    content?: { text?: string }[];
    inputRequests?: Record<string, unknown>;
  };
}

/** Sends one call to an endpoint's fetch handler (in process) and reads the JSON-RPC reply. */
export async function call(fetcher: (request: Request) => Promise<Response>, spec: CallSpec): Promise<Reply> {
  const response = await fetcher(
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers: callHeaders(spec), body: callBody(spec) }),
  );
  return readReply(response);
}

export async function readReply(response: Response): Promise<Reply> {
  const text = await response.text();
  let message: { error?: Reply['error']; result?: Reply['result'] };
  try {
    message = JSON.parse(text) as typeof message;
  } catch {
    throw new Error(
      `HTTP ${response.status} answered with something that is not JSON-RPC: ${text.slice(0, 200)}`,
    );
  }
  return {
    status: response.status,
    ...(message.error && { error: message.error }),
    ...(message.result && { result: message.result }),
  };
}
