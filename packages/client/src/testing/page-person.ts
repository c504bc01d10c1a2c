import { ParleyError } from '../errors.js';
import type { ElicitResult } from '../types.js';

/** Plays the person on the question pages of a Parley server (a form asked on a page of the server). */
export interface QuestionPagePerson {
  /**
   * Answers the page at `url` with `answer`, as a person in a browser would (the page's own JSON
   * answer, same origin). Resolves `false`, answering nothing, when `url` is not a question page on
   * loopback (where a server under test serves them): nothing else is ever fetched.
   */
  answer(url: string, answer: ElicitResult): Promise<boolean>;
}

/** Options of {@link questionPagePerson}. */
export interface QuestionPagePersonOptions {
  /** Sent with every request of the browser, e.g. `{ cookie: 'session=…' }` for a server with users. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
}

const ISLAND = /<script type="application\/json" id="parley-question">([^<]*)<\/script>/;
/** A page of a Parley server ends with its 43-character id; nothing else is ever fetched. */
const PAGE_PATH = /\/[A-Za-z0-9_-]{43}$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A person with a browser of their own, who opens a question page of a Parley server and answers
 * it (the page's JSON island tells where to post and with which anti-forgery token).
 *
 * @example
 * const person = questionPagePerson({ headers: { cookie: 'session=alice' } });
 * const link = 'http://127.0.0.1:3000/parley/questions/6xq9PmVd0wWmS1nhbZ6c9k3fQ2y8uJrXcLqA5tNoB7E';
 * await person.answer(link, { action: 'accept', content: { boxes: 2 } });
 */
export function questionPagePerson(options: QuestionPagePersonOptions = {}): QuestionPagePerson {
  const fetchPage = options.fetch ?? fetch;
  const headers = { ...options.headers };
  return {
    async answer(url, answer) {
      const target = new URL(url);
      // A server under test serves its pages on loopback; nothing on the network is ever fetched.
      if (!LOOPBACK.has(target.hostname) || !PAGE_PATH.test(target.pathname)) return false;
      // A page nobody serves here (a public URL of the server's) is not one the person can answer.
      const page = await fetchPage(url, { headers, redirect: 'manual' }).catch(() => undefined);
      if (!page) return false;
      const html = await page.text();
      const island = page.status === 200 ? ISLAND.exec(html)?.[1] : undefined;
      if (island === undefined) return false;
      const data = JSON.parse(island) as { answerUrl: string; csrf: string };
      const response = await fetchPage(data.answerUrl, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          accept: 'application/json',
          origin: new URL(data.answerUrl).origin,
        },
        body: JSON.stringify({
          csrf: data.csrf,
          action: answer.action,
          ...(answer.action === 'accept' && { content: answer.content ?? {} }),
        }),
      });
      const reply = (await response.json().catch(() => ({}))) as {
        ok?: boolean;
        message?: string;
        errors?: unknown;
      };
      if (response.ok && reply.ok === true) return true;
      throw new ParleyError(
        'invalid-answer',
        `The question page at ${url} refused the scripted answer (HTTP ${response.status}): ${reply.message ?? ''}` +
          (reply.errors ? ` ${JSON.stringify(reply.errors)}` : ''),
      );
    },
  };
}
