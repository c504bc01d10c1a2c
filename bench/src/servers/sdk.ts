import { getRequestListener } from '@hono/node-server';
import {
  acceptedContent,
  type CallToolResult,
  createMcpHandler,
  createRequestStateCodec,
  hostHeaderValidationResponse,
  type InputRequiredResult,
  inputRequired,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  McpServer,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { ANSWER_SCHEMA, keyOf, MAX_QUESTIONS, messageOf, resultText, TOOL } from '../survey.js';
import { BENCH_KEY } from './bench-key.js';
import { type RunningHttp, serveOnLoopback } from './loopback.js';
import { countRunning, sideChannel } from './side-channel.js';

/** What the raw SDK tool carries between rounds: the answers so far, HMAC-signed. */
interface SurveyState {
  readonly answers: readonly string[];
}

// As the SDK docs show: an HMAC codec with a shared key, bound (as its TSDoc recommends) to the
// method and the caller.
const stateCodec = createRequestStateCodec<SurveyState>({
  key: BENCH_KEY,
  ttlSeconds: 600,
  bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`,
});

// Schemas once at module scope, as the docs advise for anything the per-request factory uses.
const answerSchema = z.object({ answer: z.string() });
const surveyInput = z.object({ questions: z.number().int().min(1).max(MAX_QUESTIONS) });

/**
 * The survey tool written the way the official SDK's docs show: a re-entrant handler that reads
 * the latest answer with `acceptedContent`, carries the answers so far in a signed `requestState`
 * and returns `inputRequired(...)` until it has them all.
 */
export function sdkSurveyServer(): McpServer {
  const server = new McpServer(
    { name: 'bench-sdk', version: '0.1.0' },
    { requestState: { verify: stateCodec.verify } },
  );
  server.registerTool(
    TOOL,
    {
      description: 'Asks the given number of questions, one per round',
      inputSchema: surveyInput,
    },
    ({ questions }, ctx): Promise<CallToolResult | InputRequiredResult> =>
      countRunning(async () => {
        const answers = ctx.mcpReq.requestState<SurveyState>()?.answers ?? [];
        const latest = acceptedContent(ctx.mcpReq.inputResponses, keyOf(answers.length), answerSchema);
        const known = latest ? [...answers, latest.answer] : answers;
        if (known.length === questions) return { content: [{ type: 'text', text: resultText(known) }] };
        return inputRequired({
          inputRequests: {
            [keyOf(known.length)]: inputRequired.elicit({
              message: messageOf(known.length, questions),
              requestedSchema: ANSWER_SCHEMA,
            }),
          },
          requestState: await stateCodec.mint({ answers: known }, ctx),
        });
      }),
  );
  return server;
}

/**
 * Serves the raw SDK survey with `createMcpHandler` (its default posture: 2025-era requests are
 * served statelessly) behind the Host/Origin checks the docs require, on loopback HTTP through
 * `@hono/node-server`'s adapter, the same one Parley's `listen` uses. Adds the bench side channel.
 */
export async function listenSdk(): Promise<RunningHttp> {
  const handler = createMcpHandler(() => sdkSurveyServer());
  const allowedHosts = localhostAllowedHostnames();
  const allowedOrigins = localhostAllowedOrigins();
  const listener = getRequestListener(async (request) => {
    const url = new URL(request.url);
    const answer = sideChannel(url);
    if (answer) return new Response(await answer, { headers: { 'content-type': 'application/json' } });
    if (url.pathname !== '/mcp') return new Response('Not found', { status: 404 });
    const rejected =
      hostHeaderValidationResponse(request, allowedHosts) ??
      originValidationResponse(request, allowedOrigins);
    return rejected ?? handler.fetch(request);
  });
  return serveOnLoopback(
    (req, res) => void listener(req, res),
    () => handler.close(),
  );
}
