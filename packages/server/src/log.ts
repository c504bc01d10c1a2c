/** Where Parley reports what the client must not see: refused states, handler bugs, warnings. */
export type Logger = (
  level: 'info' | 'warn' | 'error',
  message: string,
  details?: Record<string, unknown>,
) => void;

/** C0 controls but newline, DEL, C1 controls, and the bidi and format characters that reorder or hide text. */
function isUnsafe(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0xfeff
  );
}

/**
 * A log message made safe for a terminal or a line-based log: control and bidi characters become
 * visible `\u{…}` escapes, and every line after the first is indented, so text a client sent
 * (a URI, a name) can neither forge a log line of its own nor drive the terminal.
 */
export function safeLogText(message: string): string {
  let safe = '';
  for (const char of message) {
    const code = char.codePointAt(0)!;
    safe += isUnsafe(code) ? `\\u{${code.toString(16)}}` : char;
  }
  return safe.replace(/\n/g, '\n    ');
}

/** Writes warnings and errors to stderr (stdout may carry the protocol on stdio), one entry per line. */
export const stderrLogger: Logger = (level, message, details) => {
  if (level === 'info') return;
  // JSON.stringify escapes control characters; safeLogText also catches C1 and bidi characters.
  const suffix = details ? ` ${JSON.stringify(details)}` : '';
  process.stderr.write(`[parley] ${level}: ${safeLogText(message + suffix)}\n`);
};
