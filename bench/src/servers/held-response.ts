import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANSWER_SCHEMA, messageOf } from '../survey.js';
import { countRunning } from './side-channel.js';

/**
 * The floor under a pending 2025-era question over HTTP: a POST whose response stays open, as a
 * 2025 server's SSE stream does while its `elicitation/create` waits for an answer. The floor
 * reads the body, sends the SSE head and that one event (precomputed bytes), then holds the
 * response until the client goes away, counted as a running handler meanwhile. Nothing else is
 * kept per request, so its heap per held response is what node:http itself costs.
 */

const QUESTION_EVENT = `event: message\ndata: ${JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'elicitation/create',
  params: { mode: 'form', message: messageOf(0, 1), requestedSchema: ANSWER_SCHEMA },
})}\n\n`;

/** Holds `res` open (after reading the request body) until the client closes the connection. */
export function holdResponse(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(QUESTION_EVENT);
    void countRunning(() => new Promise((resolve) => res.on('close', resolve)));
  });
}
