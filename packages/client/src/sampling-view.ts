import { isRecord } from '@parley/core';

/** One part of a sampling message as a host shows it: text, or a line standing in for media. */
export type SamplingPart =
  | { readonly kind: 'text'; readonly text: string }
  /** Image, audio, tool use or result: a placeholder line such as `[image image/png, 12 KB: not shown]`. */
  | { readonly kind: 'placeholder'; readonly text: string };

/** One message of the conversation the server wants a model reply to. */
export interface SamplingMessageView {
  /** `user` or `assistant` as the server sent it (any other value is shown as it came). */
  readonly role: string;
  readonly parts: readonly SamplingPart[];
}

/**
 * A `sampling/createMessage` request reduced to what a person must see to decide: the messages,
 * the system prompt and the token limit (plus model hints and temperature when given). Every
 * string is the server's own text: a host still makes it inert (`terminalText`, text nodes).
 */
export interface SamplingView {
  readonly messages: readonly SamplingMessageView[];
  readonly systemPrompt?: string;
  readonly maxTokens?: number;
  readonly modelHints?: readonly string[];
  readonly temperature?: number;
}

/**
 * Reads a sampling request (untrusted params) into a {@link SamplingView}. Whatever is not text is
 * described by one placeholder line, never decoded or shown.
 *
 * @example
 * samplingView({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 50 });
 * // { messages: [{ role: 'user', parts: [{ kind: 'text', text: 'Hi' }] }], maxTokens: 50 }
 */
export function samplingView(params: unknown): SamplingView {
  const request = isRecord(params) ? params : {};
  const messages = Array.isArray(request.messages) ? request.messages : [];
  const hints =
    isRecord(request.modelPreferences) && Array.isArray(request.modelPreferences.hints)
      ? request.modelPreferences.hints.flatMap((hint) =>
          isRecord(hint) && typeof hint.name === 'string' ? [hint.name] : [],
        )
      : [];
  return {
    messages: messages.map((message) => {
      const entry = isRecord(message) ? message : {};
      const content = Array.isArray(entry.content) ? entry.content : [entry.content];
      return {
        role: typeof entry.role === 'string' ? entry.role : 'unknown role',
        parts: content.map(partOf),
      };
    }),
    ...(typeof request.systemPrompt === 'string' && { systemPrompt: request.systemPrompt }),
    ...(typeof request.maxTokens === 'number' && { maxTokens: request.maxTokens }),
    ...(hints.length > 0 && { modelHints: hints }),
    ...(typeof request.temperature === 'number' && { temperature: request.temperature }),
  };
}

function partOf(block: unknown): SamplingPart {
  if (!isRecord(block))
    return { kind: 'placeholder', text: '[content the server sent in an unknown shape: not shown]' };
  if (block.type === 'text' && typeof block.text === 'string') return { kind: 'text', text: block.text };
  if (block.type === 'image' || block.type === 'audio') {
    const mime = typeof block.mimeType === 'string' ? ` ${block.mimeType}` : '';
    const size = typeof block.data === 'string' ? `, ${sizeOf(block.data)}` : '';
    return { kind: 'placeholder', text: `[${block.type}${mime}${size}: not shown]` };
  }
  if (block.type === 'tool_use') {
    const name = typeof block.name === 'string' ? ` ${JSON.stringify(block.name)}` : '';
    return { kind: 'placeholder', text: `[tool use${name}: not shown]` };
  }
  if (block.type === 'tool_result') return { kind: 'placeholder', text: '[tool result: not shown]' };
  const type = typeof block.type === 'string' ? JSON.stringify(block.type) : 'unknown';
  return { kind: 'placeholder', text: `[${type} content: not shown]` };
}

/** The decoded size of base64 data, roughly, for a person to read. */
function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KB`;
}
