// The facts of MCP 2026-07-28's standard headers (SEP-2243) that both ends of an exchange need: which
// request field `Mcp-Name` repeats, and how a value that is not plain ASCII travels in a header.

const NAME_FIELD: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The request field a method's `Mcp-Name` header repeats (`name` for `tools/call`, `uri` for
 * `resources/read`, ...), or `undefined` for a method that names nothing.
 */
export function mcpNameField(method: string): string | undefined {
  return Object.hasOwn(NAME_FIELD, method) ? NAME_FIELD[method] : undefined;
}

/**
 * A string as an HTTP field value: as it is when it is visible ASCII (tabs and inner spaces
 * allowed) with no outer whitespace, else base64 of its UTF-8 between `=?base64?` and `?=` (as is
 * a value that looks like that already, so the receiver never decodes what was plain).
 */
export function encodeHeaderValue(value: string): string {
  return plainFieldValue(value) ? value : `${SENTINEL_START}${base64OfUtf8(value)}${SENTINEL_END}`;
}

/**
 * A header value with its optional whitespace removed and a `=?base64?…?=` value decoded;
 * `undefined` when the sentinel does not hold canonical base64 of UTF-8.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = hasOuterWhitespace(raw) ? raw.replace(/^[ \t]+|[ \t]+$/g, '') : raw;
  // Most values are plain: only one that starts as the sentinel does is matched against it.
  if (!value.startsWith('=?')) return value;
  const sentinel = SENTINEL.exec(value);
  if (!sentinel) return value;
  const payload = sentinel[1] ?? '';
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    const binary = atob(payload);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Standard base64 of a string's UTF-8 (no `Buffer`: this root also runs in browsers). */
function base64OfUtf8(value: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function plainFieldValue(value: string): boolean {
  if (value.length === 0 || value !== value.trim()) return false;
  if (value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END)) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code !== 9 && (code < 32 || code > 126)) return false;
  }
  return true;
}

/** Whether a header value starts or ends with a space or tab (runtimes usually strip them already). */
function hasOuterWhitespace(raw: string): boolean {
  const first = raw.charCodeAt(0);
  const last = raw.charCodeAt(raw.length - 1);
  return first === 32 || first === 9 || last === 32 || last === 9;
}
