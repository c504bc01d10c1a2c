import type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
  TextResourceContents,
} from '@modelcontextprotocol/server';

/** Binary data for a content block: raw bytes, or text that is already base64. */
export type BinaryData = Uint8Array | ArrayBuffer | string;

/** What every content block may carry besides its payload. */
export interface BlockOptions {
  /** Hints for the client: `audience`, `priority`, `lastModified`. */
  readonly annotations?: Annotations;
  readonly _meta?: Record<string, unknown>;
}

/** Base64 of bytes; a string is taken as base64 already and checked, so a typo fails here and not in the client. */
export function toBase64(data: BinaryData): string {
  if (typeof data === 'string') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0) {
      throw new TypeError('Binary data given as a string must be base64 (pass a Uint8Array for raw bytes).');
    }
    return data;
  }
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function extras(options: BlockOptions | undefined): BlockOptions {
  return {
    ...(options?.annotations && { annotations: options.annotations }),
    ...(options?._meta && { _meta: options._meta }),
  };
}

/** The text or bytes of an embedded resource or of a `resources/read` entry. */
export type ResourceBody =
  | { readonly uri: string; readonly text: string; readonly mimeType?: string }
  | { readonly uri: string; readonly blob: BinaryData; readonly mimeType?: string };

/** One entry of a `resources/read` result (or of an embedded resource). */
export function resourceContents(body: ResourceBody): TextResourceContents | BlobResourceContents {
  const mime = body.mimeType !== undefined ? { mimeType: body.mimeType } : {};
  return 'text' in body
    ? { uri: body.uri, ...mime, text: body.text }
    : { uri: body.uri, ...mime, blob: toBase64(body.blob) };
}

/**
 * Builders for the content blocks of tool results and prompt messages: text, image, audio, an
 * embedded resource, a link to a resource.
 *
 * @example
 * return toolResult(
 *   content.text('Here is the chart:'),
 *   content.image(png, 'image/png'),
 *   content.resource({ uri: 'report://q3', mimeType: 'application/json', text: JSON.stringify({ quarter: 3, total: 42 }) }),
 * );
 */
export const content = {
  /** A text block. */
  text(text: string, options?: BlockOptions): TextContent {
    return { type: 'text', text, ...extras(options) };
  },
  /** An image block from bytes (or base64 text), e.g. `content.image(png, 'image/png')`. */
  image(data: BinaryData, mimeType: string, options?: BlockOptions): ImageContent {
    return { type: 'image', data: toBase64(data), mimeType, ...extras(options) };
  },
  /** An audio block from bytes (or base64 text), e.g. `content.audio(wav, 'audio/wav')`. */
  audio(data: BinaryData, mimeType: string, options?: BlockOptions): AudioContent {
    return { type: 'audio', data: toBase64(data), mimeType, ...extras(options) };
  },
  /** A resource carried inside the result: text, or bytes (sent as base64). */
  resource(body: ResourceBody, options?: BlockOptions): EmbeddedResource {
    return { type: 'resource', resource: resourceContents(body), ...extras(options) };
  },
  /** A link to a resource the client may read later (`resources/read`); nothing is embedded. */
  resourceLink(
    uri: string,
    details: {
      readonly name: string;
      readonly title?: string;
      readonly description?: string;
      readonly mimeType?: string;
    },
    options?: BlockOptions,
  ): ResourceLink {
    return { type: 'resource_link', uri, ...details, ...extras(options) };
  },
} as const;
