import type { QuestionPageData } from './page-data.js';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** JSON that cannot end the `<script>` element it sits in, nor open a comment or an entity. */
function islandJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&]/g, (char) => `\\u00${char.charCodeAt(0).toString(16)}`);
}

/** Where the page finds its script and stylesheet. */
export interface QuestionPageHtmlOptions {
  /**
   * The URL path (or absolute URL, same origin) under which `question-page.js` and
   * `question-page.css` are served, without a trailing slash, e.g. `/parley/q/assets`.
   */
  readonly assetsBase: string;
}

/**
 * The HTML of a question page: its title and heading (who asks, escaped), its one stylesheet and
 * one module script (no inline script or style, so it works under `QUESTION_PAGE_CSP`), and the
 * page's data as a JSON island with `<`, `>` and `&` escaped. The script shows the question.
 *
 * @example
 * import { QUESTION_PAGE_HEADERS, questionPageHtml } from '@parley/renderer/question-page';
 *
 * response
 *   .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...QUESTION_PAGE_HEADERS })
 *   .end(questionPageHtml(data, { assetsBase: '/parley/q/assets' }));
 */
export function questionPageHtml(data: QuestionPageData, options: QuestionPageHtmlOptions): string {
  const title = escapeHtml(`${data.server.title || data.server.name} asks a question`);
  const assets = escapeHtml(options.assetsBase.replace(/\/+$/, ''));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${assets}/question-page.css">
<script type="module" src="${assets}/question-page.js"></script>
</head><body>
<main id="parley-question-page" aria-live="polite">
  <h1>${title}</h1>
  <noscript><p>This page needs JavaScript to show the question.</p></noscript>
</main>
<script type="application/json" id="parley-question">${islandJson(data)}</script>
</body></html>
`;
}
