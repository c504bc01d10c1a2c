import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANSWER_SCHEMA, answerOf, keyOf, messageOf, questionCount, resultText } from '../survey.js';
import { holdResponse } from './held-response.js';
import { onBody, type RunningHttp, serveOnLoopback } from './loopback.js';
import { answerSideChannel } from './side-channel.js';

/**
 * The bare floor: plain node:http answering the survey with precomputed result bytes. It still
 * reads and parses every body and echoes the request id, so it is an honest lower bound for "an
 * HTTP server that answers these JSON-RPC messages", not a static file server.
 *
 * `POST /held` is the other floor, for (f): a response held open (see held-response.ts).
 */

const STATE_PREFIX = 'floor.';
// Comparable in size to a real sealed state, so the floor moves a similar number of bytes.
const STATE_PADDING = 'x'.repeat(120);

const results = new Map<string, string>();

/** The `result` after `answered` questions of a flow of `count`, built afresh. */
export function surveyResult(count: number, answered: number): Record<string, unknown> {
  return answered === count
    ? {
        resultType: 'complete',
        content: [{ type: 'text', text: resultText(Array.from({ length: count }, (_, i) => answerOf(i))) }],
      }
    : {
        resultType: 'input_required',
        inputRequests: {
          [keyOf(answered)]: {
            method: 'elicitation/create',
            params: { mode: 'form', message: messageOf(answered, count), requestedSchema: ANSWER_SCHEMA },
          },
        },
        requestState: `${STATE_PREFIX}${answered}.${STATE_PADDING}`,
      };
}

/** The `result` JSON after `answered` questions of a flow of `count` (computed once, then reused). */
function resultBytes(count: number, answered: number): string {
  const cacheKey = `${count}:${answered}`;
  let bytes = results.get(cacheKey);
  if (bytes === undefined) {
    bytes = JSON.stringify(surveyResult(count, answered));
    results.set(cacheKey, bytes);
  }
  return bytes;
}

/** How many questions a presented floor state says are answered once this retry is counted. */
export function answeredAfter(state: unknown): number | undefined {
  if (state === undefined) return 0;
  if (typeof state !== 'string' || !state.startsWith(STATE_PREFIX)) return undefined;
  const asked = Number.parseInt(state.slice(STATE_PREFIX.length), 10);
  return Number.isInteger(asked) ? asked + 1 : undefined;
}

export interface Envelope {
  id?: unknown;
  params?: { arguments?: unknown; requestState?: unknown };
}

function answer(body: string, res: ServerResponse): void {
  let message: Envelope;
  try {
    message = JSON.parse(body) as Envelope;
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
    return;
  }
  const id = JSON.stringify(message.id ?? null);
  const count = questionCount(message.params?.arguments);
  const answered = answeredAfter(message.params?.requestState);
  if (count === undefined || answered === undefined || answered > count) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(`{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"Invalid params"}}`);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(`{"jsonrpc":"2.0","id":${id},"result":${resultBytes(count, answered)}}`);
}

function route(req: IncomingMessage, res: ServerResponse): void {
  if (answerSideChannel(req, res)) return;
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/held' && req.method === 'POST') {
    holdResponse(req, res);
    return;
  }
  if (url.pathname !== '/mcp' || req.method !== 'POST') {
    res.writeHead(404).end();
    return;
  }
  onBody(req, (body) => answer(body, res));
}

/** Serves the floor on loopback HTTP. */
export function listenFloor(): Promise<RunningHttp> {
  return serveOnLoopback(route);
}
