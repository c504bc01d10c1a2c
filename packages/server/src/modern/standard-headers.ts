import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { decodeHeaderValue, mcpNameField } from '@parley/core';
import { HEADER_MISMATCH } from '../http/rpc-error.js';

/**
 * The SEP-2243 header checks of a 2026-07-28 request, beyond the version and method mismatches the
 * SDK's classifier already refuses: the required headers must be present, `Mcp-Name` must name what
 * the body names, and every `Mcp-Param-*` header a tool declares (`x-mcp-header` in its input
 * schema) must carry the body's value. A gateway routes and authorizes by these headers, so a
 * request whose headers say one thing and whose body does another is refused, not served.
 */
export interface HeaderRejection {
  readonly status: 400;
  readonly code: typeof HEADER_MISMATCH;
  readonly message: string;
  readonly data: { readonly mismatch: { readonly header: string; readonly body: string } };
}

/** One `x-mcp-header` declaration: the header suffix and where its value sits in `arguments`. */
export interface ParamHeader {
  readonly header: string;
  readonly property: string;
  readonly type: string | undefined;
}

const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function reject(header: string, body: string): HeaderRejection {
  return {
    status: 400,
    code: HEADER_MISMATCH,
    message: `Bad Request: the request headers and body disagree: ${body}`,
    data: { mismatch: { header, body } },
  };
}

// A tool's listing keeps its input schema for as long as the tool is registered: read it once.
const declaredHeaders = new WeakMap<object, readonly ParamHeader[]>();

/** The `x-mcp-header` declarations of a tool's input schema (top-level properties of primitive type). */
export function paramHeadersOf(inputSchema: unknown): readonly ParamHeader[] {
  if (typeof inputSchema !== 'object' || inputSchema === null) return [];
  let found = declaredHeaders.get(inputSchema);
  if (found === undefined) {
    found = readParamHeaders(inputSchema);
    declaredHeaders.set(inputSchema, found);
  }
  return found;
}

function readParamHeaders(inputSchema: object): ParamHeader[] {
  const properties = (inputSchema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const found: ParamHeader[] = [];
  for (const [property, schema] of Object.entries(properties as Record<string, unknown>)) {
    const header = (schema as Record<string, unknown> | null)?.['x-mcp-header'];
    if (typeof header !== 'string' || header.length === 0) continue;
    const type = (schema as { type?: unknown }).type;
    found.push({ header, property, type: typeof type === 'string' ? type : undefined });
  }
  return found;
}

/**
 * Checks one 2026-07-28 request's headers against its body; `undefined` when they agree.
 *
 * @param header reads a request header by (case-insensitive) name
 * @param paramHeaders the `x-mcp-header` declarations of the tool a `tools/call` names
 */
export function checkStandardHeaders(
  message: JSONRPCRequest,
  header: (name: string) => string | undefined,
  paramHeaders: (toolName: string) => readonly ParamHeader[],
): HeaderRejection | undefined {
  const method = message.method;
  if (header('mcp-protocol-version') === undefined)
    return reject('(missing)', 'the required MCP-Protocol-Version header is absent');
  const methodHeader = header('mcp-method');
  if (methodHeader === undefined)
    return reject(
      '(missing)',
      `the body names method ${method} but the required Mcp-Method header is absent`,
    );
  if (methodHeader.trim() !== method)
    return reject('Mcp-Method', `the Mcp-Method header names ${methodHeader} but the body names ${method}`);

  const params = (message.params ?? {}) as Record<string, unknown>;
  const field = mcpNameField(method);
  const bodyName = field === undefined ? undefined : params[field];
  if (typeof bodyName === 'string') {
    const nameHeader = header('mcp-name');
    if (nameHeader === undefined)
      return reject(
        '(missing)',
        `the body carries params.${field} but the required Mcp-Name header is absent`,
      );
    const decoded = decodeHeaderValue(nameHeader);
    if (decoded === undefined)
      return reject('Mcp-Name', 'the Mcp-Name header carries an invalid base64 value');
    if (decoded !== bodyName)
      return reject(
        'Mcp-Name',
        `the Mcp-Name header names ${JSON.stringify(decoded)} but params.${field} is ${JSON.stringify(bodyName)}`,
      );
  }

  if (method !== 'tools/call' || typeof params.name !== 'string') return undefined;
  const args = (params.arguments ?? {}) as Record<string, unknown>;
  for (const declared of paramHeaders(params.name)) {
    const value = typeof args === 'object' && args !== null ? args[declared.property] : undefined;
    if (value === undefined || value === null || typeof value === 'object') continue;
    const name = `Mcp-Param-${declared.header}`;
    const raw = header(name.toLowerCase());
    if (raw === undefined)
      return reject(
        '(missing)',
        `the body carries arguments.${declared.property} but the ${name} header is absent`,
      );
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return reject(name, `the ${name} header carries an invalid base64 value`);
    const numeric = typeof value === 'number' && DECIMAL.test(decoded);
    const agrees = numeric ? Number(decoded) === value : decoded === String(value);
    if (!agrees)
      return reject(
        name,
        `the ${name} header is ${JSON.stringify(decoded)} but arguments.${declared.property} is ${JSON.stringify(value)}`,
      );
  }
  return undefined;
}
