import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server';
import type { InputRequired } from '../input-required.js';
import type { PromptReturn, ResourceReturn, ToolReturn } from '../types.js';

export function toCallToolResult(value: Exclude<ToolReturn, InputRequired>): CallToolResult {
  return typeof value === 'string' ? { content: [{ type: 'text', text: value }] } : value;
}

export function failedToolResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export function toPromptResult(value: Exclude<PromptReturn, InputRequired>): GetPromptResult {
  return typeof value === 'string'
    ? { messages: [{ role: 'user', content: { type: 'text', text: value } }] }
    : value;
}

export function toReadResourceResult(
  value: Exclude<ResourceReturn, InputRequired>,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult {
  return typeof value === 'string'
    ? { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: value }] }
    : value;
}
