import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from '@modelcontextprotocol/client';
import type { HttpAnswer } from './http-answer.js';

/** The most read of a body nobody needs (a 202's, an error's) before its connection is dropped instead. */
const MAX_DISCARD_BYTES = 64 * 1024;
/** A session id is visible ASCII (MCP, Streamable HTTP), and no longer than this here. */
const SESSION_ID = /^[\x21-\x7e]{1,1024}$/;

/** Whether the status is a success. */
export function ok(answer: HttpAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/** A body's text, refused past `maxBytes` bytes (its connection dropped then). */
export function readText(answer: HttpAnswer, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    answer.read({
      chunk(bytes) {
        size += bytes.byteLength;
        if (size > maxBytes)
          throw new Error(
            `the upstream sent a body of more than ${maxBytes} bytes (the most the gateway reads of one message); it was dropped, so shorten what the upstream sends at once`,
          );
        chunks.push(bytes);
      },
      end(error) {
        if (error !== undefined) reject(error);
        else resolve(textOf(chunks));
      },
    });
  });
}

/** The chunks' text: one chunk (most answers) is read where it lies, not copied first. */
function textOf(chunks: readonly Uint8Array[]): string {
  if (chunks.length !== 1) return Buffer.concat(chunks).toString('utf8');
  const [only] = chunks as [Uint8Array];
  return Buffer.from(only.buffer, only.byteOffset, only.byteLength).toString('utf8');
}

/** Reads a body nobody needs, so its connection can be kept; one too long is dropped with its connection. */
export async function discard(answer: HttpAnswer): Promise<void> {
  await readText(answer, MAX_DISCARD_BYTES).catch(() => {});
}

/** The JSON-RPC messages of a JSON answer (one, or a batch). */
export function messagesOf(text: string): JSONRPCMessage[] {
  try {
    const data: unknown = JSON.parse(text);
    return (Array.isArray(data) ? data : [data]).map((item) =>
      isResultResponse(item) ? item : parseJSONRPCMessage(item),
    );
  } catch (error) {
    throw new SdkError(
      SdkErrorCode.ClientHttpUnexpectedContent,
      `The upstream answered with a JSON body that is not a JSON-RPC message (${error instanceof Error ? error.name : 'invalid'}); this is a server bug, report it to its authors.`,
    );
  }
}

/**
 * A JSON-RPC result response, told by its shape (what the SDK's schema checks of one: the version,
 * an id, a result object): the answer to nearly every request, read without the schema's parse.
 */
function isResultResponse(item: unknown): item is JSONRPCMessage {
  if (typeof item !== 'object' || item === null) return false;
  const { jsonrpc, id, result } = item as { jsonrpc?: unknown; id?: unknown; result?: unknown };
  return (
    jsonrpc === '2.0' &&
    (typeof id === 'string' || typeof id === 'number') &&
    typeof result === 'object' &&
    result !== null &&
    !Array.isArray(result)
  );
}

/** The session id an `initialize` answer named, checked: it goes back in every request's headers. */
export function sessionIdOf(answer: HttpAnswer): string | undefined {
  const id = answer.header('mcp-session-id');
  if (id === undefined) return undefined;
  if (!SESSION_ID.test(id))
    throw new SdkError(
      SdkErrorCode.ClientHttpUnexpectedContent,
      'The upstream named a session id that is not 1 to 1,024 visible ASCII characters (MCP requires visible ASCII); the session was not used.',
    );
  return id;
}

/** A refusal, with what to do about it. */
export function httpError(answer: HttpAnswer, code: SdkErrorCode, what: string): SdkHttpError {
  const status = answer.status;
  const fix =
    status === 401 || status === 403
      ? "check the upstream's headers or oauth in the gateway's config"
      : status === 404
        ? 'the upstream no longer knows this session (it restarted or ended it); call again'
        : 'check that the URL is its MCP endpoint and that it is running';
  return new SdkHttpError(
    code,
    `The upstream refused to ${what} with HTTP ${status}${answer.statusText ? ` ${oneLine(answer.statusText)}` : ''}; ${fix}.`,
    { status, statusText: answer.statusText },
  );
}

/** A status line's reason as the upstream sent it, made safe to show: one short line. */
function oneLine(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 100);
}

/** Where a redirect points, if the answer is one. */
export function redirectTarget(url: URL, answer: HttpAnswer): URL | undefined {
  if (![301, 302, 303, 307, 308].includes(answer.status)) return undefined;
  const location = answer.header('location');
  if (location === undefined) return undefined;
  try {
    return new URL(location, url);
  } catch {
    return undefined;
  }
}

/** Same scheme, host and port, and the same credentials in the URL (if any). */
export function sameOrigin(from: URL, to: URL): boolean {
  return from.origin === to.origin && to.username === from.username && to.password === from.password;
}

/** A content type's media type, lower case, without parameters. */
export function mediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const type = header.split(';', 1)[0]!.trim().toLowerCase();
  return type === '' ? undefined : type;
}
