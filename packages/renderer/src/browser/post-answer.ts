import type { QuestionPageAnswer } from '../question-page/answer.js';

/** The server's reply to an answer (`body` is its JSON, `undefined` if it was not JSON), or no reply. */
export type PostResult =
  | { readonly status: number; readonly body: unknown }
  | { readonly status: 'no reply' };

/**
 * POSTs the answer as JSON to the page's own origin (`mode: 'same-origin'`: the browser refuses
 * anything else, and sends `Origin` and `Sec-Fetch-Site: same-origin`). No redirect is followed.
 */
export async function postAnswer(url: string, answer: QuestionPageAnswer): Promise<PostResult> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      mode: 'same-origin',
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(answer),
    });
  } catch {
    return { status: 'no reply' };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}
