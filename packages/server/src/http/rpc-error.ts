import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/** JSON-RPC 2.0's own codes. */
export const PARSE_ERROR = ProtocolErrorCode.ParseError;
export const INVALID_REQUEST = ProtocolErrorCode.InvalidRequest;
export const METHOD_NOT_FOUND = ProtocolErrorCode.MethodNotFound;
export const INVALID_PARAMS = ProtocolErrorCode.InvalidParams;
export const INTERNAL_ERROR = ProtocolErrorCode.InternalError;
/** 2026-07-28: `Mcp-*` headers that contradict the body. */
export const HEADER_MISMATCH = -32020;
export const MISSING_CLIENT_CAPABILITY = ProtocolErrorCode.MissingRequiredClientCapability;
export const UNSUPPORTED_PROTOCOL_VERSION = ProtocolErrorCode.UnsupportedProtocolVersion;
/**
 * Streamable HTTP refused the request before any JSON-RPC handling: Host or Origin not allowed,
 * wrong method or media type, no session id, too many sessions (the SDK's transport uses it too).
 */
export const HTTP_REFUSED = -32000;
/** Streamable HTTP (2025): the `Mcp-Session-Id` names no open session of this caller. */
export const SESSION_NOT_FOUND = -32001;

/** The JSON-RPC error body for a request id (or null). */
export function rpcError(id: unknown, code: number, message: string, data?: unknown) {
  return {
    jsonrpc: '2.0' as const,
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    error: { code, message, ...(data !== undefined && { data }) },
  };
}
