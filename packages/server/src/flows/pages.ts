const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/**
 * Headers every flow page carries: never cached, never framed, never leaking its URL onward. A new
 * object per response: `@hono/node-server` writes each page's Content-Length into the object it is
 * given, so a shared one kept the first page's length for every later page.
 */
function pageHeaders(): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  };
}

/** A small, self-contained HTML page (no scripts, no remote assets). `body` must already be safe HTML. */
export function htmlPage(status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d2330}h1{font-size:1.4rem}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return new Response(html, { status, headers: pageHeaders() });
}

/** A page that says one thing. */
export function messagePage(status: number, title: string, message: string): Response {
  return htmlPage(status, title, `<p>${escapeHtml(message)}</p>`);
}
