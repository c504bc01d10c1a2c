// punycode.js ships no types; only what Parley uses is declared.
declare module 'punycode.js' {
  const punycode: {
    /** Converts an ASCII (punycode) domain to Unicode; ASCII labels pass through unchanged. */
    toUnicode(domain: string): string;
  };
  export default punycode;
}
