import { isRecord } from '@parley/core/form';
import { el } from '@parley/renderer/parts';
import type { CallKind } from '../../protocol.js';

// Results are untrusted JSON from the server: every part is checked before use, text is only ever
// text (never markup, never a link), and binary data is shown only as an image or audio player.

type Json = Record<string, unknown>;

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|avif|bmp|svg\+xml)$/;
const AUDIO_TYPES = /^audio\/(wav|x-wav|mpeg|mp3|ogg|webm|flac|aac|mp4)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function json(value: unknown): HTMLPreElement {
  return el('pre', { class: 'json' }, JSON.stringify(value, null, 2) ?? String(value));
}

function dataUrl(mimeType: unknown, data: unknown, allowed: RegExp): string | undefined {
  if (typeof mimeType !== 'string' || !allowed.test(mimeType)) return undefined;
  if (typeof data !== 'string' || !BASE64.test(data)) return undefined;
  return `data:${mimeType};base64,${data}`;
}

function binary(mimeType: unknown, data: unknown, what: string): HTMLElement {
  const image = dataUrl(mimeType, data, IMAGE_TYPES);
  if (image) return el('img', { src: image, alt: `${what} (${String(mimeType)})`, class: 'result-image' });
  const audio = dataUrl(mimeType, data, AUDIO_TYPES);
  if (audio)
    return el('audio', { src: audio, controls: true, 'aria-label': `${what} (${String(mimeType)})` });
  const size = typeof data === 'string' ? Math.floor((data.length * 3) / 4) : 0;
  return el(
    'p',
    { class: 'note' },
    `${what}: ${size} bytes of ${typeof mimeType === 'string' ? mimeType : 'binary data'}, not shown.`,
  );
}

function resourceContents(item: Json): HTMLElement {
  return el(
    'div',
    { class: 'resource' },
    el(
      'p',
      { class: 'resource-uri' },
      el('span', { class: 'label' }, 'Resource '),
      el('code', null, text(item.uri)),
    ),
    typeof item.text === 'string'
      ? el('pre', { class: 'text' }, item.text)
      : binary(item.mimeType, item.blob, 'Resource content'),
  );
}

/** One content block of a tool result or prompt message. */
export function contentBlock(block: unknown): HTMLElement {
  if (!isRecord(block)) return json(block);
  switch (block.type) {
    case 'text':
      return el('pre', { class: 'text' }, text(block.text));
    case 'image':
      return binary(block.mimeType, block.data, 'Image from the server');
    case 'audio':
      return binary(block.mimeType, block.data, 'Audio from the server');
    case 'resource':
      return isRecord(block.resource) ? resourceContents(block.resource) : json(block);
    case 'resource_link':
      return el(
        'div',
        { class: 'resource' },
        el(
          'p',
          { class: 'resource-uri' },
          el('span', { class: 'label' }, 'Link to resource '),
          el('code', null, text(block.uri)),
        ),
        text(block.description) ? el('p', null, text(block.description)) : null,
      );
    default:
      return json(block);
  }
}

function blocks(list: unknown): HTMLElement[] {
  return Array.isArray(list) ? list.map(contentBlock) : [];
}

function toolResult(result: Json): HTMLElement[] {
  const parts = blocks(result.content);
  if (result.structuredContent !== undefined) {
    parts.push(el('p', { class: 'label' }, 'Structured content'), json(result.structuredContent));
  }
  return parts;
}

function promptResult(result: Json): HTMLElement[] {
  const messages = Array.isArray(result.messages) ? result.messages : [];
  const parts: (HTMLElement | null)[] = [
    text(result.description) ? el('p', null, text(result.description)) : null,
    el(
      'ol',
      { class: 'messages' },
      ...messages.map((message: unknown) =>
        el(
          'li',
          null,
          el('span', { class: 'role' }, isRecord(message) ? text(message.role) : ''),
          isRecord(message) ? contentBlock(message.content) : json(message),
        ),
      ),
    ),
  ];
  return parts.filter((part): part is HTMLElement => part !== null);
}

function resourceResult(result: Json): HTMLElement[] {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  return contents.map((item: unknown) => (isRecord(item) ? resourceContents(item) : json(item)));
}

/** Whether a tool result reports a tool error (`isError: true`). */
export function isToolError(kind: CallKind, result: unknown): boolean {
  return kind === 'tool' && isRecord(result) && result.isError === true;
}

/**
 * Shows a call's result: text as text, JSON as JSON, images and audio inline, embedded resources
 * with their URI; a tool error is marked as an error. The raw JSON is one click away.
 */
export function resultView(kind: CallKind, result: unknown): HTMLElement {
  const error = isToolError(kind, result);
  const parts = !isRecord(result)
    ? [json(result)]
    : kind === 'tool'
      ? toolResult(result)
      : kind === 'prompt'
        ? promptResult(result)
        : resourceResult(result);
  return el(
    'div',
    { class: error ? 'result result-error' : 'result' },
    error ? el('p', { class: 'error-title', role: 'alert' }, 'The tool reported an error') : null,
    ...parts,
    el('details', { class: 'raw' }, el('summary', null, 'Result as JSON'), json(result)),
  );
}
