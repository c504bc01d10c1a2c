import { randomUUID } from 'node:crypto';
import { getRequestListener } from '@hono/node-server';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { type RunningHttp, serveOnLoopback } from './loopback.js';
import { sdkPushSurveyServer } from './sdk-push.js';
import { sideChannel } from './side-channel.js';

/**
 * The raw SDK serving 2025-era HTTP sessions the way its docs show: one `McpServer` (the survey of
 * sdk-push.ts) and one `WebStandardStreamableHTTPServerTransport` per session, kept in a map by
 * session id. No quotas, no idle sweep, no resumability: (f) reads what an idle session costs the
 * SDK alone, the floor under Parley's.
 */
export async function listenSdkSessions(): Promise<RunningHttp> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const listener = getRequestListener(async (request) => {
    const url = new URL(request.url);
    const answer = sideChannel(url);
    if (answer) return new Response(await answer, { headers: { 'content-type': 'application/json' } });
    if (url.pathname !== '/mcp') return new Response('Not found', { status: 404 });
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const known = sessions.get(id);
      return known ? known.handleRequest(request) : new Response('Session not found', { status: 404 });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await sdkPushSurveyServer().connect(transport);
    return transport.handleRequest(request);
  });
  return serveOnLoopback(
    (req, res) => void listener(req, res),
    async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
    },
  );
}
