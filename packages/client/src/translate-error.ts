import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { describeCall, ParleyError } from './errors.js';
import type { CallInfo } from './types.js';

const PROTOCOL_CODES = new Set<string>([
  SdkErrorCode.InvalidResult,
  SdkErrorCode.UnsupportedResultType,
  SdkErrorCode.CapabilityNotSupported,
  SdkErrorCode.MethodNotSupportedByProtocolVersion,
  SdkErrorCode.ListPaginationExceeded,
]);

/**
 * Turns whatever the SDK threw during a request into a `ParleyError` that names the server, the
 * call and what to do. A `ParleyError` passes through unchanged.
 */
export function translateError(error: unknown, server: string, call?: CallInfo): ParleyError {
  if (error instanceof ParleyError) return error;
  const during = call === undefined ? '' : ` during ${describeCall(call)}`;
  const details = { server, ...(call !== undefined && { call }), cause: error };
  if (error instanceof ProtocolError) {
    return new ParleyError(
      'server',
      `${server} answered with error ${error.code}${during}: ${error.message}`,
      {
        ...details,
        code: error.code,
        data: error.data,
      },
    );
  }
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout) {
      return new ParleyError(
        'timeout',
        `${server} did not answer in time${during}: ${error.message}`,
        details,
      );
    }
    if (PROTOCOL_CODES.has(error.code)) {
      return new ParleyError(
        'protocol',
        `${server} broke the MCP protocol${during}: ${error.message}; this is a server bug, report it to its authors`,
        details,
      );
    }
    return new ParleyError(
      'connection',
      `The connection to ${server} failed${during}: ${error.message}`,
      details,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ParleyError('connection', `The connection to ${server} failed${during}: ${message}`, details);
}
