/**
 * What a terminal must never receive from a server: C0 controls other than tab and newline (ESC
 * starts cursor moves, erases, OSC 8 links, OSC 52 clipboard writes, window titles; CR overwrites
 * a line; BEL ends an OSC), DEL, the C1 controls (U+0080–U+009F: CSI and OSC in one code point),
 * and the invisible format characters (Unicode category Cf: the bidi embeddings, overrides and
 * isolates, U+061C, U+200E/F, zero-width spaces, U+FEFF...), plus the line and paragraph separators.
 * U+200C and U+200D stay: scripts and emoji need them, and they move no cursor. A CR LF pair is a
 * newline.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE = /\r\n|[\0-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]|(?![\u200c\u200d])\p{Cf}/gu;

/**
 * Makes server-supplied text inert and visible before it reaches a terminal: every character above
 * is replaced by a printable stand-in, so an attack shows as what it is. C0 controls and DEL become
 * their Unicode control pictures (ESC `␛`, CR `␍`, BEL `␇`, DEL `␡`); the others become `<U+XXXX>`
 * (`<U+009B>`, `<U+202E>`). Tab and newline are kept; CR LF becomes a newline.
 *
 * @example
 * terminalText('Evil\x1b[1A\x1b[2K asks'); // 'Evil␛[1A␛[2K asks'
 * terminalText('invoice\u202Egpj.exe'); // 'invoice<U+202E>gpj.exe'
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, (char) => {
    if (char === '\r\n') return '\n';
    const code = char.codePointAt(0)!;
    if (code < 0x20) return String.fromCodePoint(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}

/**
 * {@link terminalText} for what must stay on one line (a server's name, a call's name, a field's
 * title, an option): a newline shows as `␊`, so no second line can pose as Parley's own.
 *
 * @example
 * terminalLine('Evil\nBrightgrid store asks'); // 'Evil␊Brightgrid store asks'
 */
export function terminalLine(text: string): string {
  return terminalText(text).replaceAll('\n', '\u240a');
}

/** Whether `text` reaches a terminal unchanged by {@link terminalText}. */
export function isTerminalSafe(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const unsafe = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return !unsafe;
}
