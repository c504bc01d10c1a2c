import { Writable } from 'node:stream';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@parley/client';
import { terminalText } from '@parley/client/terminal';

type Block = CallToolResult['content'][number];

/** A content block as text for a terminal: text as it is, anything else as a short description. */
export function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[link] ${block.uri}${block.name ? ` (${block.name})` : ''}`;
    case 'resource': {
      const resource = block.resource;
      return 'text' in resource
        ? resource.text
        : `[resource ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}]`;
    }
    default:
      return JSON.stringify(block);
  }
}

export function toolResultText(result: CallToolResult): string {
  const lines = result.content.map(blockText);
  if (lines.length === 0 && result.structuredContent !== undefined)
    lines.push(JSON.stringify(result.structuredContent, null, 2));
  return lines.join('\n');
}

export function promptText(result: GetPromptResult): string {
  return result.messages
    .map((message) => `${message.role}: ${blockText(message.content as Block)}`)
    .join('\n');
}

export function resourceText(result: ReadResourceResult): string {
  return result.contents
    .map((content) =>
      'text' in content
        ? content.text
        : `[blob ${content.uri}${content.mimeType ? `, ${content.mimeType}` : ''}]`,
    )
    .join('\n');
}

/** Writes text with a final newline, unless it is empty. */
export function writeText(stream: NodeJS.WritableStream, text: string): void {
  if (text !== '') stream.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function writeJson(stream: NodeJS.WritableStream, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes one message of the CLI's own on stderr; server text in it (names, errors) is made inert. */
export function say(stream: NodeJS.WritableStream, text: string): void {
  stream.write(`${terminalText(text)}\n`);
}

/**
 * Standard output as the CLI writes it: on a terminal, every character a server could use to move
 * the cursor, erase, set the title, write the clipboard or hide a link is made visible and inert
 * (`terminalText`); a pipe or a file gets the text exactly as the server sent it.
 */
export function terminalSafeStdout<T extends Writable & { isTTY?: boolean }>(stdout: T): Writable {
  if (stdout.isTTY !== true) return stdout;
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      stdout.write(terminalText(typeof chunk === 'string' ? chunk : chunk.toString('utf8')), done);
    },
  });
}
