import { ProtocolError } from '@modelcontextprotocol/client';
import { ToolError } from '@parley/server';
import { ParkedCallError } from '../relay/live-calls.js';
import type { WireError } from './live-wire.js';

/** What a resume on the holding replica failed with, fit to travel back to the replica that asked. */
export function toWireError(error: unknown): WireError {
  if (error instanceof ToolError) return { kind: 'tool', message: error.message };
  if (error instanceof ProtocolError)
    return {
      kind: 'protocol',
      code: error.code,
      message: error.message,
      ...(error.data !== undefined && { data: error.data }),
    };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'failed', message: message.replace(/\s+/g, ' ').slice(0, 500) };
}

/**
 * The error a host gets for a resume that failed on the holding replica (`replica`, its readable
 * name): a tool error stays one, the upstream's JSON-RPC error stays one, anything else says where
 * it happened.
 */
export function fromWireError(error: WireError, replica: string): Error {
  switch (error.kind) {
    case 'tool':
      return new ToolError(error.message);
    case 'protocol':
      return new ProtocolError(error.code, error.message, error.data);
    case 'failed':
      return new ParkedCallError(
        `The upstream call held by gateway replica ${replica} failed (${error.message}); call again to start over.`,
      );
  }
}
