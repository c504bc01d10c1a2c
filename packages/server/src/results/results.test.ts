import { describe, expect, it } from 'vitest';
import { content, toBase64 } from './content.js';
import {
  message,
  promptResult,
  resourceResult,
  structuredResult,
  toolError,
  toolErrorResult,
  toolResult,
} from './results.js';

describe('content blocks', () => {
  it('sends bytes as base64 and decodes back to the same bytes', () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const image = content.image(bytes, 'image/png');
    expect(image).toEqual({ type: 'image', data: 'AAEC+v8=', mimeType: 'image/png' });
    expect(new Uint8Array(Buffer.from(image.data, 'base64'))).toEqual(bytes);
    // A view into a larger buffer encodes only its own bytes.
    const view = new Uint8Array(new Uint8Array([9, 9, 1, 2, 9]).buffer, 2, 2);
    expect(content.audio(view, 'audio/wav').data).toBe(Buffer.from([1, 2]).toString('base64'));
  });

  it('takes base64 text as is, and refuses text that is not base64', () => {
    expect(toBase64('AAEC+v8=')).toBe('AAEC+v8=');
    expect(() => content.image('not base64!', 'image/png')).toThrow(/base64/);
    expect(() => toBase64('abc')).toThrow(/base64/);
  });

  it('builds embedded resources and links with their annotations', () => {
    expect(
      content.resource(
        { uri: 'test://r', mimeType: 'text/plain', text: 'hi' },
        { annotations: { priority: 1 } },
      ),
    ).toEqual({
      type: 'resource',
      resource: { uri: 'test://r', mimeType: 'text/plain', text: 'hi' },
      annotations: { priority: 1 },
    });
    expect(content.resource({ uri: 'test://b', blob: new Uint8Array([1]) }).resource).toEqual({
      uri: 'test://b',
      blob: 'AQ==',
    });
    expect(content.resourceLink('test://r', { name: 'r', mimeType: 'text/plain' })).toEqual({
      type: 'resource_link',
      uri: 'test://r',
      name: 'r',
      mimeType: 'text/plain',
    });
  });
});

describe('results', () => {
  it('builds tool results, errors and structured results', () => {
    expect(toolResult('a', content.text('b'))).toEqual({
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    });
    expect(toolErrorResult('nope')).toEqual({ content: [{ type: 'text', text: 'nope' }], isError: true });
    // The name it had, kept for one release.
    expect(toolError('nope')).toEqual(toolErrorResult('nope'));
    expect(structuredResult({ celsius: 21 })).toEqual({
      content: [{ type: 'text', text: '{"celsius":21}' }],
      structuredContent: { celsius: 21 },
    });
    expect(structuredResult({ celsius: 21 }, 'It is 21°C.').content).toEqual([
      { type: 'text', text: 'It is 21°C.' },
    ]);
  });

  it('builds prompt and resource results', () => {
    expect(promptResult('hello', message.assistant('hi'))).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'hello' } },
        { role: 'assistant', content: { type: 'text', text: 'hi' } },
      ],
    });
    expect(
      resourceResult(
        { uri: 'test://t', text: 'x' },
        { uri: 'test://b', mimeType: 'image/png', blob: 'AQ==' },
      ),
    ).toEqual({
      contents: [
        { uri: 'test://t', text: 'x' },
        { uri: 'test://b', mimeType: 'image/png', blob: 'AQ==' },
      ],
    });
  });
});
