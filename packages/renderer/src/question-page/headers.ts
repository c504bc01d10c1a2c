/**
 * The Content-Security-Policy of a question page: its own script and stylesheet only, no inline
 * script or style, answers posted to its own origin, never framed.
 */
export const QUESTION_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Every header a question page's HTML goes out with (the page's script works under exactly these). */
export const QUESTION_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': QUESTION_PAGE_CSP,
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
});
