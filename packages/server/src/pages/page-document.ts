import { escapeHtml } from '../flows/pages.js';
import type { QuestionFlowData } from './page-types.js';

/** Who asks, as the page shows it: the server's self-description. */
export interface PageServer {
  readonly name: string;
  readonly title?: string;
  readonly version?: string;
}

/** The island the page's script reads (`@parley/renderer`'s `QuestionPageData`). */
export interface QuestionPageIsland {
  readonly v: 1;
  readonly server: PageServer;
  readonly call: QuestionFlowData['call'];
  readonly message: string;
  readonly requestedSchema: QuestionFlowData['schema'];
  readonly secretFields: readonly string[];
  readonly confirm?: boolean;
  readonly csrf: string;
  readonly expiresAt: number;
  readonly answerUrl: string;
  readonly after: 'url' | 'retry';
}

/**
 * Every question page's headers: a strict policy (scripts and styles from this origin only, no
 * inline script or style, nothing framed, nothing sent elsewhere), never cached, no referrer.
 */
export function pageHeaders(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'content-security-policy':
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  };
}

/** JSON safe inside a `<script type="application/json">` element: no `<`, `>` or `&` left to end it. */
function islandJson(island: QuestionPageIsland): string {
  return JSON.stringify(island).replace(/[<>&\u2028\u2029]/g, (char) => {
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** The name a page shows for the server: its title, else its name, cut to a sane length. */
export function serverLabel(server: PageServer): string {
  return (server.title || server.name).slice(0, 80);
}

/**
 * The HTML of a question page: a heading that says who asks, and the question as data for the
 * page's script (`assetsBase`/question-page.js, from `@parley/renderer`), which renders the form.
 */
export function questionDocument(island: QuestionPageIsland, assetsBase: string): Response {
  const heading = `${serverLabel(island.server)} asks you a question`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)}</title>
<link rel="stylesheet" href="${escapeHtml(`${assetsBase}/question-page.css`)}">
<script type="module" src="${escapeHtml(`${assetsBase}/question-page.js`)}"></script>
</head><body>
<main id="parley-question-page" aria-live="polite">
<h1>${escapeHtml(heading)}</h1>
<noscript><p>This page needs JavaScript to show the question.</p></noscript>
</main>
<script type="application/json" id="parley-question">${islandJson(island)}</script>
</body></html>`;
  return new Response(html, { status: 200, headers: pageHeaders('text/html; charset=utf-8') });
}

/** A JSON answer to the page's script. */
export function pageJson(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), { status, headers: pageHeaders('application/json') });
}
