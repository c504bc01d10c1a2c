import { Agent, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { onBody, type RunningHttp, serveOnLoopback } from './loopback.js';
import { answerSideChannel } from './side-channel.js';

/**
 * The forwarding floor of (h): plain node:http in front of the upstream, passing each POST's body
 * on over a keep-alive connection and the upstream's answer back, byte for byte, with the
 * 2026-07-28 headers the upstream checks. No parse, no check, no state of its own: the least any
 * HTTP gateway does for a round, so the gateway's flows/s read against it say how much of what
 * forwarding alone leaves the gateway keeps (on the same shared cores as everything else).
 */
export function listenForwardFloor(upstreamUrl: string): Promise<RunningHttp> {
  const upstream = new URL(upstreamUrl);
  const agent = new Agent({ keepAlive: true });
  const forwarded = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name'];
  const route = (req: IncomingMessage, res: ServerResponse): void => {
    if (answerSideChannel(req, res)) return;
    onBody(req, (body) => {
      const headers: Record<string, string> = { 'content-length': String(Buffer.byteLength(body)) };
      for (const name of forwarded) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: upstream.pathname,
          method: 'POST',
          headers,
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, {
            'content-type': answer.headers['content-type'] ?? 'application/json',
          });
          answer.pipe(res);
        },
      );
      out.on('error', () => res.writeHead(502).end());
      out.end(body);
    });
  };
  return serveOnLoopback(route, async () => agent.destroy());
}
