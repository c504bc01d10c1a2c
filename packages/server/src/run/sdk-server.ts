import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  Server,
  type ServerCapabilities,
  type ServerContext,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import { isCreateTaskResult, type TaskCall } from '../eras/era.js';
import { isParkedOutcome } from '../eras/parked.js';
import { AuthorError, CallEndingError } from '../errors.js';
import { isInputRequired } from '../input-required.js';
import type { MiddlewareMethod, RoundObserver } from '../middleware.js';
import { type Arrival, CallRequest, type ServingUnit } from '../request/call-request.js';
import { TASKS_EXTENSION } from '../tasks/task-requests.js';
import { complete } from './completions.js';
import { report } from './failure-report.js';
import { runChain } from './middleware-chain.js';
import { runCall } from './run-call.js';
import { followChanges } from './session-changes.js';
import { type FoundCall, type FoundOrRefused, SURFACES, type Surface } from './surfaces.js';

/** The era a serving unit was built for (the SDK's names). */
export type ServingEra = 'modern' | 'legacy';

/** `setRequestHandler` for a method chosen at run time (the table knows each one's params and result). */
type AnyHandler = (
  method: string,
  handler: (request: { params?: unknown }, sdk: ServerContext) => unknown,
) => void;

/** Sets the handler of one method: it gets the request's params, the SDK's context, and what the edge recorded. */
type Handle = (
  method: string,
  answer: (params: never, sdk: ServerContext, arrival: Arrival | undefined) => unknown,
) => void;

/**
 * Builds the official SDK's low-level `Server` for one serving unit (the shared 2026-07-28
 * connection, or one session or stdio connection on the 2025 eras). The registries are shared and
 * computed once; per unit this only wires the request handlers of each surface that has entries.
 *
 * @param arrivalOf what the HTTP edge recorded about a request, found by its id (the shared modern
 *   connection's one lookup).
 */
export function buildSdkServer(
  app: App,
  era: ServingEra,
  transport: 'http' | 'stdio' = 'http',
  arrivalOf?: (sdk: ServerContext) => Arrival | undefined,
): Server {
  const unit: ServingUnit = {
    era: era === 'modern' ? 'modern' : 'handshake',
    transport,
    localUser: transport === 'stdio' ? app.stdioUser : undefined,
    arrivalOf,
  };
  const surfaces = SURFACES.filter((surface) => surface.present(app));
  const server = new Server(app.info, serverOptions(app, surfaces));
  const handle: Handle = (method, answer) =>
    (server.setRequestHandler as unknown as AnyHandler).call(server, method, (request, sdk) => {
      // The one lookup of what the edge recorded; a handler that starts tells it so.
      const arrival = unit.arrivalOf?.(sdk);
      arrival?.dispatched();
      return answer(request.params as never, sdk, arrival);
    });
  if (app.declares('completions')) handle('completion/complete', (params) => complete(app, params));
  if (era === 'legacy') followChanges(app, server, handle);
  for (const surface of surfaces) serveSurface({ app, server, unit }, surface, handle);
  return server;
}

/** What the server declares: its capabilities, its instructions, its cache hints. */
function serverOptions(app: App, surfaces: readonly Surface[]): ServerOptions {
  // Logging is always offered: the SDK applies the client's level (logging/setLevel on 2025, the
  // request's _meta level on 2026-07-28) to what ctx.log sends.
  const capabilities: ServerCapabilities = { logging: {} };
  for (const surface of surfaces) capabilities[surface.capability] = { listChanged: true };
  if (capabilities.resources) capabilities.resources = { listChanged: true, subscribe: true };
  if (app.declares('completions')) capabilities.completions = {};
  if (app.declares('tasks')) capabilities.extensions = { [TASKS_EXTENSION]: {} };
  return {
    capabilities,
    ...(app.instructions !== undefined && { instructions: app.instructions }),
    ...(app.cacheHints && { cacheHints: app.cacheHints }),
  };
}

/** The serving unit's side of every request: the same for each request of the unit. */
interface Serving {
  readonly app: App;
  readonly server: Server;
  readonly unit: ServingUnit;
}

/** One surface's handlers: its list requests, and its call, each inside the middleware chain. */
function serveSurface(serving: Serving, surface: Surface, handle: Handle): void {
  const { app, server, unit } = serving;
  const requestOf = (
    method: MiddlewareMethod,
    params: unknown,
    sdk: ServerContext,
    arrival: Arrival | undefined,
  ) => new CallRequest(app, server, sdk, unit, method, params, arrival);
  for (const [method, list] of Object.entries(surface.lists))
    handle(method, (params, sdk, arrival) =>
      runChain(requestOf(method as MiddlewareMethod, params, sdk, arrival), async () => list!(app)),
    );
  handle(surface.method, (params, sdk, arrival) =>
    serveCall(requestOf(surface.method, params, sdk, arrival), surface),
  );
}

/**
 * One call of a surface, inside the middleware chain, with the one error policy: a ProtocolError
 * stays one, anything else becomes the surface's failure.
 */
function serveCall(request: CallRequest, surface: Surface): Promise<Result> {
  const { app } = request;
  let found: FoundCall | undefined;
  const failed = (error: unknown): Result => {
    if (error instanceof ProtocolError) throw error;
    return surface.fail(report(app, error, found?.what ?? `${surface.method} request`), error);
  };
  // No middleware: the error policy goes on the call's own `.then` (and on the lookup's), so a
  // 2025-era call waiting on its person holds no `.catch` link around it (nor an `async` frame).
  // Middleware can fail too, outside the call: then the policy wraps the whole chain.
  const policy = request.internal || app.middleware.length === 0 ? failed : undefined;
  const served = settled(() =>
    runChain(request, (observe) => {
      let lookup: ReturnType<typeof surface.find>;
      try {
        lookup = surface.find(app, request.params as never);
      } catch (error) {
        return failing(error, policy);
      }
      const run = (one: FoundOrRefused): Promise<Result> => {
        if ('refused' in one) return Promise.resolve(one.refused);
        found = one;
        return runFound(request, surface, one, observe, policy);
      };
      return lookup instanceof Promise ? lookup.then(run, policy) : run(lookup);
    }),
  );
  return policy ? served : served.catch(failed);
}

/**
 * Runs the call found, with a `policy`: every failure of it goes through the policy. A module
 * function, not a closure in the request handler: a 2025-era call keeps what its `.then` holds
 * (`found`, the request, the policy) while the person answers, and nothing more.
 */
function runFound(
  request: CallRequest,
  surface: Surface,
  found: FoundCall,
  observe: RoundObserver,
  policy: ((error: unknown) => Result) | undefined,
): Promise<Result> {
  const { app, server } = request;
  let running: Promise<unknown>;
  try {
    running = runCall(request, found, observe, found.task && taskOf(app, surface, found, server));
  } catch (error) {
    return failing(error, policy);
  }
  return running.then(
    policy
      ? (outcome) => guarded(() => resultOf(found, outcome, server), policy)
      : (outcome) => resultOf(found, outcome, server),
    policy,
  );
}

/** What a call's outcome answers the request with. */
function resultOf(found: FoundCall, outcome: unknown, server: Server): Result | Promise<Result> {
  if (isInputRequiredResult(outcome) || isCreateTaskResult(outcome)) return outcome as Result;
  if (isParkedOutcome(outcome)) return found.parked(outcome);
  return found.finish(outcome, server);
}

/**
 * A task call's settling: its outcome follows the one error policy too. A failure the caller may
 * read is a completed task with an error result; anything else fails the task with an internal error.
 */
function taskOf(app: App, surface: Surface, found: FoundCall, server: Server): TaskCall<unknown> {
  return {
    mode: found.task!,
    async settle(task, ended) {
      try {
        if (!('value' in ended)) throw ended.error;
        if (isInputRequired(ended.value))
          throw new AuthorError(
            'A handler returned inputRequired() after ctx.runAsTask(): inside a task, ask with ctx.elicit() (the task carries the question).',
          );
        return task.complete((await found.finish(ended.value, server)) as never);
      } catch (error) {
        const message = report(app, error, found.what);
        if (error instanceof CallEndingError) task.complete(surface.fail(message, error) as never);
        else if (error instanceof ProtocolError) task.fail({ code: error.code, message: error.message });
        else task.fail({ code: ProtocolErrorCode.InternalError, message });
      }
    },
  };
}

/** What `run()` gives; with a `policy`, its failure (thrown, or its promise's) goes through the policy. */
function guarded(
  run: () => Result | Promise<Result>,
  policy: (error: unknown) => Result,
): Result | Promise<Result> {
  try {
    const result = run();
    return result instanceof Promise ? result.catch(policy) : result;
  } catch (error) {
    return policy(error);
  }
}

/** A failure as the call's promise: through the `policy` when there is one, as `.catch(policy)` would. */
function failing(error: unknown, policy: ((error: unknown) => Result) | undefined): Promise<Result> {
  if (!policy) return Promise.reject(error);
  try {
    return Promise.resolve(policy(error));
  } catch (thrown) {
    return Promise.reject(thrown);
  }
}

/** `run()`'s promise, or a rejection when it throws before it has one (as an async function would). */
function settled<T>(run: () => Promise<T>): Promise<T> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error);
  }
}
