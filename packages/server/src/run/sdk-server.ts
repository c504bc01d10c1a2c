import {
  isInputRequiredResult,
  ProtocolError,
  type Result,
  Server,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import { CallEndingError } from '../errors.js';
import { type MiddlewareMethod, type RequestStart, runChain } from './middleware.js';
import { runCall, type ServingEra, type ServingUnit, userOf } from './run-call.js';
import { SURFACES } from './surfaces.js';

/** `setRequestHandler` for a method chosen at run time (the table knows each one's params and result). */
type AnyHandler = (
  method: string,
  handler: (request: { params?: unknown }, sdk: ServerContext) => unknown,
) => void;

/**
 * Builds the official SDK's low-level `Server` for one serving unit (one HTTP request on
 * 2026-07-28, one session or stdio connection on the 2025 eras). The registries are shared and
 * computed once; per unit this only wires the request handlers of each surface that has entries.
 */
export function buildSdkServer(
  app: App,
  era: ServingEra,
  transport: 'http' | 'stdio' = 'http',
  hooks: Pick<ServingUnit, 'authOf' | 'onDispatch' | 'internal'> = {},
): Server {
  const unit: ServingUnit = { localUser: transport === 'stdio' ? app.stdioUser : undefined, ...hooks };
  const surfaces = SURFACES.filter((surface) => surface.present(app));
  const capabilities: ServerCapabilities = {};
  for (const surface of surfaces) capabilities[surface.capability] = {};
  const server = new Server(app.info, {
    capabilities,
    ...(app.instructions !== undefined && { instructions: app.instructions }),
  });
  const handle = (method: string, answer: (params: never, sdk: ServerContext) => unknown) =>
    (server.setRequestHandler as unknown as AnyHandler).call(server, method, (request, sdk) => {
      unit.onDispatch?.(sdk);
      return answer(request.params as never, sdk);
    });

  const chainFor = (sdk: ServerContext) => (unit.internal?.(sdk) ? [] : app.middleware);
  /** The facts middleware gets about a request before it runs. */
  const start = (method: string, params: unknown, sdk: ServerContext): RequestStart => {
    const {
      name,
      uri,
      arguments: args,
    } = (params ?? {}) as { name?: string; uri?: string; arguments?: unknown };
    return {
      method: method as MiddlewareMethod,
      name: name ?? uri,
      args: args ?? {},
      era: era === 'modern' ? 'modern' : 'handshake',
      user: userOf(app, unit, sdk),
      sdk,
      pendingQuestions: () => app.pendingQuestions.count,
    };
  };

  for (const surface of surfaces) {
    for (const [method, list] of Object.entries(surface.lists))
      handle(method, (params, sdk) =>
        runChain(chainFor(sdk), start(method, params, sdk), async () => list!(app)),
      );
    handle(surface.method, async (params, sdk): Promise<Result> => {
      let what = `${surface.method} request`;
      try {
        return await runChain(chainFor(sdk), start(surface.method, params, sdk), async (observe) => {
          const found = await surface.find(app, params);
          if ('refused' in found) return found.refused;
          what = found.what;
          const outcome = await runCall({
            app,
            era,
            sdk,
            server,
            unit,
            call: found.spec,
            observe,
            invoke: async (ctx) => found.handler(ctx),
          });
          if (isInputRequiredResult(outcome)) return outcome;
          return await found.finish(outcome, server);
        });
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        return surface.fail(report(app, error, what), error);
      }
    });
  }
  return server;
}

/**
 * The one error policy for every call: what a CallEndingError says reaches the caller (and the log
 * too when it is the author's mistake); anything else reaches the caller only as an internal error
 * with a reference, its details in the log.
 */
function report(app: App, error: unknown, what: string): string {
  if (error instanceof CallEndingError) {
    if (error.authorBug) app.log('error', `${what}: ${error.message}`);
    return error.message;
  }
  const reference = crypto.randomUUID().slice(0, 8);
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  app.log('error', `${what} failed (reference ${reference}): ${detail}`);
  return `${what} failed with an internal error (reference ${reference}); the server log has the details.`;
}
