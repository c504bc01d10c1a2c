// The question page's script (bundled by scripts/build-page.mjs to dist/page/question-page.js). It
// reads the page's data from the #parley-question JSON island and shows the question in
// #parley-question-page. Everything from the server is shown as text.

import { readQuestionPageData } from '../question-page/page-data.js';
import { postAnswer } from './post-answer.js';
import { mountQuestionPage, parseIsland, showPageProblem } from './question-page-view.js';

const main = document.getElementById('parley-question-page');
if (main) {
  const island = document.getElementById('parley-question');
  const reading = readQuestionPageData(parseIsland(island?.textContent ?? ''), location.origin);
  // No focus move on load: the person reads the heading and the message before the first field.
  if (reading.ok) mountQuestionPage(main, reading.data, postAnswer);
  else showPageProblem(main, reading.problem);
}
