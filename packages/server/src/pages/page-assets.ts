import { pageHeaders } from './page-document.js';

/** The files a question page loads, by name. */
const ASSETS = new Set(['question-page.js', 'question-page.css']);

/**
 * Serves the page's script and stylesheet (built by `@parley/renderer`); `undefined` for any other
 * name. TODO(renderer): read them from @parley/renderer/question-page once that package lands.
 */
export function pageAsset(name: string): Response | undefined {
  if (!ASSETS.has(name)) return undefined;
  return new Response('', { status: 404, headers: pageHeaders('text/plain') });
}
