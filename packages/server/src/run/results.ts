import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server';
import type { PromptReturn, ResourceReturn, ToolReturn } from '../types.js';

export function toCallToolResult(value: ToolReturn): CallToolResult {
  return typeof value === 'string' ? { content: [{ type: 'text', text: value }] } : value;
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export function toPromptResult(value: PromptReturn): GetPromptResult {
  return typeof value === 'string'
    ? { messages: [{ role: 'user', content: { type: 'text', text: value } }] }
    : value;
}

export function toReadResourceResult(
  value: ResourceReturn,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult {
  return typeof value === 'string'
    ? { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: value }] }
    : value;
}
