import { createHash } from 'node:crypto';
import { escapeHtml } from '@parley/server';

/** HTML that is already safe (built by {@link html}); anything else interpolated is escaped. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

/** A template tag that escapes every interpolated value unless it is itself `html`. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  return new SafeHtml(
    strings.reduce((out, part, i) => out + part + (i < values.length ? render(values[i]) : ''), ''),
  );
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; background: #f4f6fb; color: #1b2333; }
  @media (prefers-color-scheme: dark) { body { background: #11151f; color: #e8ecf5; } main { background: #1b2130 !important; } }
  header { background: #ffb703; color: #1b2333; padding: 0.8rem 1.5rem; font-weight: 700; font-size: 1.2rem; }
  main { max-width: 30rem; margin: 2rem auto; padding: 1.5rem 2rem; background: #fff; border-radius: 12px;
    box-shadow: 0 2px 12px rgb(0 0 0 / 0.08); }
  label { display: block; margin: 1rem 0 0.3rem; font-weight: 600; }
  input { width: 100%; box-sizing: border-box; padding: 0.55rem; font-size: 1rem; border: 1px solid #8a94a8; border-radius: 6px; }
  button { margin: 1.2rem 0.5rem 0 0; padding: 0.6rem 1.2rem; font-size: 1rem; border-radius: 6px; border: 1px solid #1b2333;
    background: #1b2333; color: #fff; cursor: pointer; }
  button.secondary { background: transparent; color: inherit; }
  .error { color: #b3261e; font-weight: 600; }
  .muted { color: #5b6477; }
  .warning { border-left: 4px solid #b3261e; padding: 0.4rem 0.8rem; background: rgb(179 38 30 / 0.08); }
  .destination { font-family: ui-monospace, monospace; font-size: 1.05rem; }
  ul { padding-left: 1.2rem; }
`;

/** The Content-Security-Policy of every page: nothing loads but this page's own stylesheet. */
const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** A complete HTML response with the store's look and strict security headers. */
export function page(
  title: string,
  body: SafeHtml,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const document = html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Brightgrid</title><style>${new SafeHtml(STYLE)}</style></head>
<body><header>Brightgrid</header><main>${body}</main></body>
</html>`;
  return new Response(document.text, {
    status: init.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CSP,
      'x-frame-options': 'DENY',
      // same-origin: links to other sites carry no Referer (flow URLs stay private), and forms keep their Origin.
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...init.headers,
    },
  });
}
