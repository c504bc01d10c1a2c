import type { IncomingMessage, ServerResponse } from 'node:http';
import { questionCount } from '../survey.js';
import { answeredAfter, type Envelope, surveyResult } from './floor.js';
import { onBody, type RunningHttp, serveOnLoopback } from './loopback.js';
import { answerSideChannel } from './side-channel.js';

/**
 * The JSON floor: plain node:http that parses each request's JSON and builds and serializes each
 * response, the least any MCP server must do per message. It answers the survey exactly as the
 * bare floor does (same results, same state scheme), but where the bare floor writes precomputed
 * result bytes, this one makes the response object and `JSON.stringify`s it on every request.
 */

function answer(body: string, res: ServerResponse): void {
  let message: Envelope;
  try {
    message = JSON.parse(body) as Envelope;
  } catch {
    reply(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    return;
  }
  const id = message.id ?? null;
  const count = questionCount(message.params?.arguments);
  const answered = answeredAfter(message.params?.requestState);
  if (count === undefined || answered === undefined || answered > count) {
    reply(res, 400, { jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid params' } });
    return;
  }
  reply(res, 200, { jsonrpc: '2.0', id, result: surveyResult(count, answered) });
}

/** Answers `message` as JSON with `status`, serialized now (the JSON floor's one way of answering). */
export function reply(res: ServerResponse, status: number, message: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(message));
}

function route(req: IncomingMessage, res: ServerResponse): void {
  if (answerSideChannel(req, res)) return;
  if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  onBody(req, (body) => answer(body, res));
}

/** Serves the JSON floor on loopback HTTP. */
export function listenJsonFloor(): Promise<RunningHttp> {
  return serveOnLoopback(route);
}
