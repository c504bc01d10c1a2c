// A stand-in for the server side of a question page, on loopback: it serves the page's HTML
// (questionPageHtml) with its headers (QUESTION_PAGE_HEADERS), the built script and stylesheet
// (questionPageAsset), and records every answer POSTed, replying with whatever the test queued.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  QUESTION_PAGE_HEADERS,
  type QuestionPageAssetName,
  type QuestionPageData,
  questionPageAsset,
  questionPageHtml,
} from '@parley/renderer/question-page';

/** An answer as the server got it. */
export interface ReceivedAnswer {
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

/** The server's next reply to an answer: a status and JSON body, or no reply at all (the socket dropped). */
export type QueuedReply = { readonly status: number; readonly body: unknown } | 'drop';

/** The page's data less what the server fills in (where the answer goes). */
export type PageSetup = Omit<QuestionPageData, 'answerUrl'> & { readonly answerUrl?: string };

export interface QuestionPageServer {
  readonly origin: string;
  /** Publishes a page and returns its URL. */
  open(setup: PageSetup): string;
  /** Every answer received, in order. */
  readonly answers: ReceivedAnswer[];
  /** Replies to the next answers, in order; when empty the server answers 200 `{ ok: true }`. */
  readonly replies: QueuedReply[];
  close(): Promise<void>;
}

export const THANKS = 'Thanks, your answer reached Brightgrid. Go back to your app.';

/** Starts the stand-in server on 127.0.0.1 (any free port). */
export async function startQuestionPageServer(): Promise<QuestionPageServer> {
  const pages = new Map<string, QuestionPageData>();
  const answers: ReceivedAnswer[] = [];
  const replies: QueuedReply[] = [];
  let origin = '';

  const server = createServer((request, response) => {
    // A fresh connection per request: Chromium silently retries a request whose reused connection
    // drops, which would hide the dropped answer a test asks for.
    response.setHeader('connection', 'close');
    const path = new URL(request.url ?? '/', origin).pathname;
    const asset = /^\/assets\/(question-page\.(?:js|css))$/.exec(path)?.[1];
    if (request.method === 'GET' && asset !== undefined) {
      const { body, type } = questionPageAsset(asset as QuestionPageAssetName);
      response.writeHead(200, { 'content-type': type, 'x-content-type-options': 'nosniff' }).end(body);
      return;
    }
    const page = /^\/q\/(\d+)(\/answer)?$/.exec(path);
    const data = page ? pages.get(page[1]!) : undefined;
    if (!page || !data) {
      response.writeHead(404).end();
      return;
    }
    if (request.method === 'GET' && page[2] === undefined) {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...QUESTION_PAGE_HEADERS })
        .end(questionPageHtml(data, { assetsBase: '/assets' }));
      return;
    }
    if (request.method !== 'POST' || page[2] === undefined) {
      response.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      answers.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const reply = replies.shift() ?? { status: 200, body: { ok: true, message: THANKS } };
      if (reply === 'drop') {
        request.socket.destroy();
        return;
      }
      response
        .writeHead(reply.status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    answers,
    replies,
    open(setup) {
      const id = String(pages.size + 1);
      pages.set(id, { ...setup, answerUrl: setup.answerUrl ?? `${origin}/q/${id}/answer` });
      return `${origin}/q/${id}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
