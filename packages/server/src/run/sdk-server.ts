import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import { CallEndingError, ElicitationUnavailable } from '../errors.js';
import { validateArgs } from '../registry/schema.js';
import type { ParleyContext } from '../types.js';
import { toCallToolResult, toolError, toPromptResult, toReadResourceResult } from './results.js';
import { type CallSpec, runCall, type ServingEra, type ServingUnit } from './run-call.js';

const isPublic = (error: unknown): error is CallEndingError => error instanceof CallEndingError;

/**
 * Builds the official SDK's low-level `Server` for one serving unit (one HTTP request on
 * 2026-07-28, one session or stdio connection on the 2025 eras). The registries are shared and
 * computed once; per unit this only wires a handful of request handlers.
 */
export function buildSdkServer(
  app: App,
  era: ServingEra,
  transport: 'http' | 'stdio' = 'http',
  hooks: Pick<ServingUnit, 'authOf' | 'onDispatch'> = {},
): Server {
  const unit: ServingUnit = { localUser: transport === 'stdio' ? app.stdioUser : undefined, ...hooks };
  const dispatched = (sdk: ServerContext) => unit.onDispatch?.(sdk);
  const call = <R>(sdk: ServerContext, spec: CallSpec, invoke: (ctx: ParleyContext) => R | Promise<R>) =>
    runCall(app, era, sdk, server, spec, async (ctx) => invoke(ctx), unit);
  const capabilities: ServerCapabilities = {};
  if (app.tools.size > 0) capabilities.tools = {};
  if (app.prompts.size > 0) capabilities.prompts = {};
  if (app.resources.size > 0) capabilities.resources = {};
  const server = new Server(app.info, {
    capabilities,
    ...(app.instructions !== undefined && { instructions: app.instructions }),
  });
  /** Logs what the author must see and returns what the caller may see. */
  const report = (error: unknown, what: string): string => {
    if (isPublic(error)) {
      if (error.authorBug) app.log('error', `${what}: ${error.message}`);
      return error.message;
    }
    const reference = crypto.randomUUID().slice(0, 8);
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    app.log('error', `${what} failed (reference ${reference}): ${detail}`);
    return `${what} failed with an internal error (reference ${reference}); the server log has the details.`;
  };

  if (app.tools.size > 0) {
    server.setRequestHandler('tools/list', (_request, sdk) => {
      dispatched(sdk);
      return { tools: app.tools.list() };
    });
    server.setRequestHandler('tools/call', async (request, sdk) => {
      dispatched(sdk);
      const { name } = request.params;
      const args = request.params.arguments ?? {};
      const tool = app.tools.get(name);
      if (!tool)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown tool '${name}'; call tools/list to see the tools.`,
        );
      const validated = await validateArgs(tool.input, args);
      if (!validated.ok) return toolError(`Invalid arguments for tool ${name}: ${validated.message}`);
      try {
        const outcome = await call(sdk, { method: 'tools/call', target: name, args }, (ctx) =>
          tool.handler(validated.value as never, ctx),
        );
        if (isInputRequiredResult(outcome)) return outcome;
        const result = toCallToolResult(outcome);
        if (tool.output && !result.isError) {
          const checked = await validateArgs(tool.output, result.structuredContent);
          if (!checked.ok)
            throw new Error(
              `Tool ${name} returned structuredContent that does not match its output schema: ${checked.message}`,
            );
        }
        return server.projectCallToolResult(result, tool.outputJson);
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        return toolError(report(error, `Tool ${name}`));
      }
    });
  }

  if (app.prompts.size > 0) {
    server.setRequestHandler('prompts/list', (_request, sdk) => {
      dispatched(sdk);
      return { prompts: app.prompts.list() };
    });
    server.setRequestHandler('prompts/get', async (request, sdk) => {
      dispatched(sdk);
      const { name } = request.params;
      const args = request.params.arguments ?? {};
      const prompt = app.prompts.get(name);
      if (!prompt)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown prompt '${name}'; call prompts/list to see the prompts.`,
        );
      const validated = await validateArgs(prompt.args, args);
      if (!validated.ok)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Invalid arguments for prompt ${name}: ${validated.message}`,
        );
      const outcome = await guard(
        () =>
          call(sdk, { method: 'prompts/get', target: name, args }, (ctx) =>
            prompt.handler(validated.value as never, ctx),
          ),
        (error) => report(error, `Prompt ${name}`),
      );
      return isInputRequiredResult(outcome) ? outcome : toPromptResult(outcome);
    });
  }

  if (app.resources.size > 0) {
    server.setRequestHandler('resources/list', (_request, sdk) => {
      dispatched(sdk);
      return { resources: app.resources.list() };
    });
    server.setRequestHandler('resources/templates/list', (_request, sdk) => {
      dispatched(sdk);
      return { resourceTemplates: app.resources.listTemplates() };
    });
    server.setRequestHandler('resources/read', async (request, sdk) => {
      dispatched(sdk);
      const { uri } = request.params;
      const found = app.resources.resolve(uri);
      if (!found) throw new ResourceNotFoundError(uri);
      const { resource, params } = found;
      const outcome = await guard(
        () =>
          call(sdk, { method: 'resources/read', target: uri, args: {} }, (ctx) =>
            resource.handler({ uri, params }, ctx),
          ),
        (error) => report(error, `Resource ${JSON.stringify(uri)}`),
      );
      return isInputRequiredResult(outcome) ? outcome : toReadResourceResult(outcome, uri, resource.mimeType);
    });
  }
  return server;
}

/** For prompts and resources, which have no error result: a failure becomes a JSON-RPC error. */
async function guard<T>(run: () => Promise<T>, report: (error: unknown) => string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    const message = report(error);
    const code =
      error instanceof ElicitationUnavailable
        ? ProtocolErrorCode.InvalidRequest
        : ProtocolErrorCode.InternalError;
    throw new ProtocolError(code, message);
  }
}
