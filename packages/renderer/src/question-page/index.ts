// @parley/renderer/question-page: what a server needs to serve a question page. The types of the
// data it writes into the page and of the answer the page posts back, the page's HTML and headers,
// the check the page runs on its data, and questionPageAsset, which reads the built script and
// stylesheet (Node only).

export type { QuestionPageAnswer, QuestionPageReply } from './answer.js';
export { type QuestionPageAsset, type QuestionPageAssetName, questionPageAsset } from './assets.js';
export { QUESTION_PAGE_CSP, QUESTION_PAGE_HEADERS } from './headers.js';
export { type PageDataReading, type QuestionPageData, readQuestionPageData } from './page-data.js';
export { type QuestionPageHtmlOptions, questionPageHtml } from './page-html.js';
