import {
  QUESTION_PAGE_HEADERS,
  type QuestionPageData,
  questionPageHtml,
} from '@parley/renderer/question-page';

/** Who asks, as the page shows it: the server's self-description. */
export type PageServer = QuestionPageData['server'];

/** The name a page shows for the server: its title, else its name, cut to a sane length. */
export function serverLabel(server: PageServer): string {
  return (server.title || server.name).slice(0, 80);
}

/**
 * A question page (its HTML and headers from `@parley/renderer/question-page`, which also builds
 * the script that renders the question from `data`).
 */
export function questionDocument(data: QuestionPageData, assetsBase: string): Response {
  return new Response(questionPageHtml(data, { assetsBase }), {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', ...QUESTION_PAGE_HEADERS },
  });
}

/** A JSON answer to the page's script, under the page's own policy. */
export function pageJson(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...QUESTION_PAGE_HEADERS },
  });
}
