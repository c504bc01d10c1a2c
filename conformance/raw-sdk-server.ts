/**
 * The same conformance surface written with the raw official SDK, the way its docs show
 * (`inputRequired`, `acceptedContent`, `inputResponse`, `createRequestStateCodec`, and the
 * `isLegacyRequest` routing recipe for sessionful 2025 clients). The suite runs against it too, to
 * show Parley loses nothing by building on the SDK.
 *
 *   node conformance/dist/raw-sdk-server.js <port>
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import {
  acceptedContent,
  type CallToolResult,
  createMcpHandler,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  isInitializeRequest,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { EVERY_ENUM_KIND } from './every-enum-kind.js';

type Result = CallToolResult | InputRequiredResult;
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const codec = createRequestStateCodec<{ step: string; name?: string }>({
  key: crypto.getRandomValues(new Uint8Array(32)),
  bind: (ctx) => `${ctx.mcpReq.method}`,
});
const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;
const okSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;
const askName = (message = 'What is your name?') =>
  inputRequired.elicit({ message, requestedSchema: nameSchema as never });

function build(): McpServer {
  const server = new McpServer(
    { name: 'raw-sdk-conformance', version: '0.1.0' },
    { requestState: { verify: codec.verify } },
  );

  server.registerTool('test_simple_text', { description: 'Returns simple text' }, async () =>
    text('This is a simple text response for testing.'),
  );

  server.registerTool(
    'test_elicitation',
    { description: 'Asks for a username and an email', inputSchema: z.object({ message: z.string() }) },
    async ({ message }, ctx): Promise<Result> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'info');
      if (view.kind === 'elicit') {
        return text(
          `User response: <action: ${view.action}, content: ${JSON.stringify(view.content ?? {})}>`,
        );
      }
      return inputRequired({
        inputRequests: {
          info: inputRequired.elicit({
            message,
            requestedSchema: {
              type: 'object',
              properties: { username: { type: 'string' }, email: { type: 'string' } },
              required: ['username', 'email'],
            },
          }),
        },
      });
    },
  );

  server.registerTool(
    'test_elicitation_sep1034_defaults',
    { description: 'Defaults on every field' },
    async (ctx): Promise<Result> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'details');
      if (view.kind === 'elicit') return text(`Elicitation completed: action=${view.action}`);
      return inputRequired({
        inputRequests: {
          details: inputRequired.elicit({
            message: 'Please confirm your details',
            requestedSchema: {
              type: 'object',
              properties: {
                name: { type: 'string', default: 'John Doe' },
                age: { type: 'integer', default: 30 },
                score: { type: 'number', default: 95.5 },
                status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
                verified: { type: 'boolean', default: true },
              },
            },
          }),
        },
      });
    },
  );

  server.registerTool(
    'test_elicitation_sep1330_enums',
    { description: 'Every enum kind' },
    async (ctx): Promise<Result> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'choices');
      if (view.kind === 'elicit') return text(`Elicitation completed: action=${view.action}`);
      return inputRequired({
        inputRequests: {
          choices: inputRequired.elicit({
            message: 'Please choose',
            requestedSchema: EVERY_ENUM_KIND as never,
          }),
        },
      });
    },
  );

  server.registerTool(
    'test_input_required_result_elicitation',
    { description: 'Asks for your name' },
    async (ctx): Promise<Result> => {
      // A malformed answer (dropped by the SDK) is simply asked again: a McpServer tool handler
      // cannot answer -32602 itself (thrown errors become tool error results).
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'user_name', z.object({ name: z.string() }));
      if (answer) return text(`Hello, ${answer.name}!`);
      return inputRequired({ inputRequests: { user_name: askName() } });
    },
  );

  server.registerTool(
    'test_input_required_result_sampling',
    { description: 'Asks the client model' },
    async (ctx): Promise<Result> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'capital_question');
      if (view.kind === 'sampling') return text('Sampled.');
      return inputRequired({
        inputRequests: {
          capital_question: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            maxTokens: 100,
          }),
        },
      });
    },
  );

  server.registerTool(
    'test_input_required_result_list_roots',
    { description: 'Asks for roots' },
    async (ctx): Promise<Result> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'client_roots');
      if (view.kind === 'roots') return text(`Roots: ${view.roots.length}`);
      return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    },
  );

  const confirmTool = async (
    ctx: Parameters<Parameters<McpServer['registerTool']>[2]>[1],
  ): Promise<Result> => {
    const state = ctx.mcpReq.requestState<{ step: string }>();
    const ok = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', z.object({ ok: z.boolean() }));
    if (state?.step === 'asked' && ok) return text('state-ok');
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({ message: 'Confirm?', requestedSchema: okSchema as never }),
      },
      requestState: await codec.mint({ step: 'asked' }, ctx),
    });
  };
  server.registerTool('test_input_required_result_request_state', { description: 'Carries state' }, (ctx) =>
    confirmTool(ctx as never),
  );
  server.registerTool(
    'test_input_required_result_tampered_state',
    { description: 'Rejects tampered state' },
    (ctx) => confirmTool(ctx as never),
  );

  server.registerTool(
    'test_input_required_result_multiple_inputs',
    { description: 'Three kinds at once' },
    async (ctx): Promise<Result> => {
      const responses = ctx.mcpReq.inputResponses;
      const name = acceptedContent(responses, 'user_name', z.object({ name: z.string() }));
      const greeting = inputResponse(responses, 'greeting');
      const roots = inputResponse(responses, 'client_roots');
      if (
        ctx.mcpReq.requestState() !== undefined &&
        name &&
        greeting.kind === 'sampling' &&
        roots.kind === 'roots'
      ) {
        return text(`Hello ${name.name}`);
      }
      return inputRequired({
        inputRequests: {
          user_name: askName(),
          greeting: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
            maxTokens: 50,
          }),
          client_roots: inputRequired.listRoots(),
        },
        requestState: await codec.mint({ step: 'asked' }, ctx as never),
      });
    },
  );

  server.registerTool(
    'test_input_required_result_multi_round',
    { description: 'Two rounds' },
    async (ctx): Promise<Result> => {
      const state = ctx.mcpReq.requestState<{ step: string; name?: string }>();
      if (state?.step === 'step2') {
        const color = acceptedContent(ctx.mcpReq.inputResponses, 'step2', z.object({ color: z.string() }));
        if (color) return text(`${state.name} likes ${color.color}.`);
      }
      const name =
        state?.step === 'step1'
          ? acceptedContent(ctx.mcpReq.inputResponses, 'step1', z.object({ name: z.string() }))
          : undefined;
      if (name) {
        return inputRequired({
          inputRequests: {
            step2: inputRequired.elicit({
              message: 'Favourite color?',
              requestedSchema: {
                type: 'object',
                properties: { color: { type: 'string' } },
                required: ['color'],
              },
            }),
          },
          requestState: await codec.mint({ step: 'step2', name: name.name }, ctx as never),
        });
      }
      return inputRequired({
        inputRequests: { step1: askName() },
        requestState: await codec.mint({ step: 'step1' }, ctx as never),
      });
    },
  );

  server.registerTool(
    'test_input_required_result_capabilities',
    { description: 'Uses what the client declared' },
    async (ctx): Promise<Result> => {
      const caps = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[
        'io.modelcontextprotocol/clientCapabilities'
      ] as Record<string, unknown> | undefined;
      const responses = ctx.mcpReq.inputResponses;
      if (responses && Object.keys(responses).length > 0) return text('Answered.');
      if (caps?.elicitation) return inputRequired({ inputRequests: { user_name: askName() } });
      if (caps?.sampling) {
        return inputRequired({
          inputRequests: {
            name_sample: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'Pick a name' } }],
              maxTokens: 20,
            }),
          },
        });
      }
      return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    },
  );

  server.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'Asks for context' },
    async (ctx) => {
      const context = acceptedContent(
        ctx.mcpReq.inputResponses,
        'user_context',
        z.object({ context: z.string() }),
      );
      if (context)
        return {
          messages: [
            { role: 'user', content: { type: 'text', text: `Use this context: ${context.context}` } },
          ],
        };
      return inputRequired({
        inputRequests: {
          user_context: inputRequired.elicit({
            message: 'What context should the prompt use?',
            requestedSchema: {
              type: 'object',
              properties: { context: { type: 'string' } },
              required: ['context'],
            },
          }),
        },
      });
    },
  );

  // The SDK's seam answers -32021 when the client did not declare sampling.
  server.registerTool(
    'test_missing_capability',
    { description: 'Needs sampling' },
    async (): Promise<Result> =>
      inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
            maxTokens: 10,
          }),
        },
      }),
  );

  // McpServer advertises listChanged, so the suite looks for these hooks to mutate the lists.
  server.registerTool(
    'test_trigger_tool_change',
    { description: 'Announces a tool list change' },
    async () => {
      await modern.notify.toolsChanged();
      return text('Tools changed.');
    },
  );
  server.registerTool(
    'test_trigger_prompt_change',
    { description: 'Announces a prompt list change' },
    async () => {
      await modern.notify.promptsChanged();
      return text('Prompts changed.');
    },
  );

  server.registerTool(
    'test_streaming_elicitation',
    { description: 'Asks mid-call' },
    async (ctx): Promise<Result> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'continue');
      if (view.kind === 'elicit') return text(`Answer: ${view.action}`);
      return inputRequired({
        inputRequests: {
          continue: inputRequired.elicit({ message: 'Continue?', requestedSchema: okSchema as never }),
        },
      });
    },
  );

  server.registerTool('test_logging_tool', { description: 'Logs' }, async (ctx) => {
    await ctx.mcpReq.log('info', 'test_logging_tool ran');
    return text('Logged.');
  });
  return server;
}

const modern = createMcpHandler(() => build(), { legacy: 'reject' });
const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

async function legacy(request: Request): Promise<Response> {
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId) {
    const transport = sessions.get(sessionId);
    if (!transport) return new Response('Session not found', { status: 404 });
    return transport.handleRequest(request);
  }
  const body = await request
    .clone()
    .json()
    .catch(() => undefined);
  if (!isInitializeRequest(body)) return new Response('Mcp-Session-Id required', { status: 400 });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    onsessioninitialized: (id) => void sessions.set(id, transport),
    onsessionclosed: (id) => void sessions.delete(id),
  });
  await build().connect(transport);
  return transport.handleRequest(request);
}

const port = Number(process.argv[2] ?? 0);
const listener = getRequestListener(async (request) => {
  if (new URL(request.url).pathname !== '/mcp') return new Response('Not found', { status: 404 });
  return (await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request);
});
const http = createHttpServer((req, res) => void listener(req, res));
http.listen(port, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`);
});
const stop = () => {
  http.closeAllConnections();
  http.close(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
