#!/usr/bin/env node
// One question page on loopback, served the way a Parley server serves it: the HTML with its
// headers, the built script and stylesheet, and the answer POSTed back as JSON. Open the printed
// URL, answer, and the answer is printed here (the secret as its length only). Then it exits.
//
//   npm run build && node packages/renderer/examples/question-page.mjs
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { parseContent } from '@parley/core/form';
import { QUESTION_PAGE_HEADERS, questionPageAsset, questionPageHtml } from '@parley/renderer/question-page';

const csrf = randomBytes(24).toString('base64url');
let origin = '';

const question = () => ({
  v: 1,
  server: { name: 'brightgrid', title: 'Brightgrid', version: '1.0.0' },
  call: { kind: 'tool', name: 'link_courier_account' },
  message: 'Link your courier account so we can book pickups for you.',
  requestedSchema: {
    type: 'object',
    properties: {
      account: { type: 'string', title: 'Account name', minLength: 2 },
      apiKey: { type: 'string', title: 'Courier API key', minLength: 8 },
      pickups: { type: 'integer', title: 'Pickups a week', minimum: 1, maximum: 5, default: 1 },
    },
    required: ['account', 'apiKey'],
  },
  secretFields: ['apiKey'],
  csrf,
  expiresAt: Date.now() + 10 * 60_000,
  answerUrl: `${origin}/answer`,
  after: 'url',
});

function json(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** Reads a JSON body of at most 64 KB; `undefined` for anything else. */
async function readJson(request) {
  if (request.headers['content-type'] !== 'application/json') return undefined;
  let text = '';
  for await (const chunk of request) {
    text += chunk;
    if (text.length > 65_536) return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sameText(a, b) {
  if (typeof a !== 'string') return false;
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

const server = createServer(async (request, response) => {
  const path = new URL(request.url ?? '/', origin).pathname;
  if (request.method === 'GET' && path === '/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...QUESTION_PAGE_HEADERS });
    response.end(questionPageHtml(question(), { assetsBase: '/assets' }));
  } else if (
    request.method === 'GET' &&
    (path === '/assets/question-page.js' || path === '/assets/question-page.css')
  ) {
    const { body, type } = questionPageAsset(path.slice('/assets/'.length));
    response.writeHead(200, { 'content-type': type, 'x-content-type-options': 'nosniff' }).end(body);
  } else if (request.method === 'POST' && path === '/answer') {
    if (request.headers.origin !== origin || request.headers['sec-fetch-site'] !== 'same-origin')
      return json(response, 403, { ok: false, message: 'Answer from this page only.' });
    const answer = await readJson(request);
    if (!answer || !sameText(answer.csrf, csrf))
      return json(response, 400, { ok: false, message: 'This answer is not from this page.' });
    if (!['accept', 'decline', 'cancel'].includes(answer.action))
      return json(response, 400, { ok: false, message: 'Answer accept, decline or cancel.' });
    if (answer.action === 'accept') {
      // The same rules as the form's, checked again here: the page is not trusted.
      const parsed = parseContent(question().requestedSchema, answer.content);
      if (!parsed.ok)
        return json(response, 422, {
          ok: false,
          message: 'Some answers need attention.',
          errors: parsed.errors,
        });
      const { apiKey, ...rest } = parsed.value;
      console.log(`Answer: accept ${JSON.stringify({ ...rest, apiKey: `(${apiKey.length} characters)` })}`);
    } else {
      console.log(`Answer: ${answer.action}`);
    }
    json(response, 200, {
      ok: true,
      message: 'Thanks, your answer reached Brightgrid. You can close this page.',
    });
    server.close();
    server.closeIdleConnections();
  } else {
    response.writeHead(404).end();
  }
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  origin = `http://127.0.0.1:${server.address().port}`;
  console.log(`Question page: ${origin}/`);
});
