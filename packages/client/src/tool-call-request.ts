import type { CallToolRequestParams, RequestOptions, Tool } from '@modelcontextprotocol/client';
import type { Connection } from './connection.js';
import type { CallMethod } from './events.js';

/**
 * Sends one request leg. A modern-era `tools/call` for a tool the host has listed goes through
 * the SDK's `callTool` with that definition, so parameters marked `x-mcp-header` are mirrored
 * into `Mcp-Param-*` headers (SEP-2243). The definition goes without its `outputSchema`: a round
 * that asks for input carries no structured content, and the SDK would refuse it.
 */
export function sendRequest(
  connection: Connection,
  method: CallMethod,
  params: Record<string, unknown>,
  options: RequestOptions,
): Promise<unknown> {
  const tool =
    method === 'tools/call' && connection.era === 'modern'
      ? connection.tools.get(String(params.name))
      : undefined;
  if (tool === undefined) return connection.sdk.request({ method, params }, options);
  const { outputSchema: _notCheckedHere, ...toolDefinition } = tool;
  return connection.sdk.callTool(params as CallToolRequestParams, { ...options, toolDefinition });
}

/** Remembers the tools a listing returned, for {@link sendRequest}. */
export function rememberTools(connection: Connection, tools: readonly Tool[]): void {
  connection.tools.clear();
  for (const tool of tools) connection.tools.set(tool.name, tool);
}
