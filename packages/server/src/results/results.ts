import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  PromptMessage,
  ReadResourceResult,
} from '@modelcontextprotocol/server';
import { content, type ResourceBody, resourceContents } from './content.js';

/** A content block, or a string for a text block. */
export type BlockInput = ContentBlock | string;

const block = (input: BlockInput): ContentBlock => (typeof input === 'string' ? content.text(input) : input);

/**
 * A tool result made of content blocks (strings become text blocks).
 *
 * @example
 * return toolResult('Multiple content types test:', content.image(png, 'image/png'));
 */
export function toolResult(...blocks: BlockInput[]): CallToolResult {
  return { content: blocks.map(block) };
}

/**
 * A tool result with `structuredContent`. The server checks it against the tool's `output` schema
 * before it is sent. Without blocks, the content is the value as JSON text (for clients that read
 * only `content`).
 *
 * @example
 * server.tool('weather', { input: z.object({ city: z.string() }), output: z.object({ celsius: z.number() }) },
 *   async ({ city }) => structuredResult({ celsius: await lookup(city) }));
 */
export function structuredResult(value: Record<string, unknown>, ...blocks: BlockInput[]): CallToolResult {
  return {
    content: blocks.length > 0 ? blocks.map(block) : [content.text(JSON.stringify(value))],
    structuredContent: value,
  };
}

/**
 * A tool result that reports a failure to the model (`isError: true`): the tool ran and could not
 * do its job. Use it (or throw a `ToolError`) for errors the model can act on; a protocol error is
 * for requests the server could not serve at all.
 *
 * @example
 * server.tool('track_order', { input: z.object({ id: z.string() }) }, ({ id }) =>
 *   orders.has(id)
 *     ? `Order ${id} is on its way.`
 *     : toolErrorResult(`No order ${id}: check the number and try again.`),
 * );
 */
export function toolErrorResult(...blocks: BlockInput[]): CallToolResult {
  return { content: blocks.map(block), isError: true };
}

/**
 * The name {@link toolErrorResult} had before: a tool result that reports a failure to the model.
 *
 * @deprecated Renamed `toolErrorResult` (a result, beside the `ToolError` one throws); this name goes
 * in the next release.
 */
export const toolError: typeof toolErrorResult = toolErrorResult;

/**
 * Builders for prompt messages.
 *
 * @example
 * return promptResult(message.user(content.image(png, 'image/png')), message.user('Please analyze the image above.'));
 */
export const message = {
  /** A message from the user (a string becomes a text block). */
  user(input: BlockInput): PromptMessage {
    return { role: 'user', content: block(input) as PromptMessage['content'] };
  },
  /** A message from the assistant (a string becomes a text block). */
  assistant(input: BlockInput): PromptMessage {
    return { role: 'assistant', content: block(input) as PromptMessage['content'] };
  },
} as const;

/** A `prompts/get` result from messages (a string becomes a user text message). */
export function promptResult(...messages: (PromptMessage | string)[]): GetPromptResult {
  return { messages: messages.map((entry) => (typeof entry === 'string' ? message.user(entry) : entry)) };
}

/**
 * A `resources/read` result: text or bytes (sent as base64) for one or more URIs.
 *
 * @example
 * server.resource('test://static-binary', { mimeType: 'image/png' }, ({ uri }) =>
 *   resourceResult({ uri, mimeType: 'image/png', blob: png }));
 */
export function resourceResult(...bodies: ResourceBody[]): ReadResourceResult {
  return { contents: bodies.map(resourceContents) };
}
