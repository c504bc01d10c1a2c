import type { StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { App, type ServerOptions } from './app.js';
import type { DirectToolCalls } from './direct-call-types.js';
import type { FlowPage } from './flows/flow-kit.js';
import type { Middleware } from './middleware.js';
import type { PromptConfig, PromptHandler } from './registry/prompts.js';
import type { ResourceConfig, ResourceHandler } from './registry/resources.js';
import type { ArgsSchema } from './registry/schema.js';
import type { ArgNames, ToolConfig, ToolHandler } from './registry/tools.js';
import { createEndpoint, type Endpoint, type EndpointOptions } from './serve/http-endpoint.js';
import { type Listening, type ListenOptions, listen } from './serve/listen.js';
import { startPageListener } from './serve/page-listener.js';
import { type StdioOptions, serveOverStdio } from './serve/stdio.js';

/**
 * A Parley server: tools, prompts and resources whose handlers can ask the person questions with
 * `ctx.elicit()`, served over stdio or one HTTP endpoint, on the 2026-07-28 and 2025 protocol eras.
 */
export class ParleyServer {
  readonly #app: App;

  constructor(options: ServerOptions) {
    this.#app = new App(options, startPageListener);
  }

  /** The server's name and version. */
  get info(): { name: string; version: string; title?: string } {
    return this.#app.info;
  }

  /**
   * Questions sent to 2025-era clients (`elicitation/create`, sampling, roots) and not answered yet,
   * across every connection. 2026-07-28 questions travel in results, so the server holds none.
   *
   * @example
   * setInterval(() => metrics.gauge('parley.pending_questions', server.pendingQuestions), 10_000);
   */
  get pendingQuestions(): number {
    return this.#app.pendingQuestions.count;
  }

  /**
   * Adds middleware around every request (tool calls, prompts, resources and their list requests),
   * on every round of both eras. The first added runs outermost. See {@link Middleware}.
   *
   * @example
   * server.use(async (c, next) => {
   *   const started = performance.now();
   *   await next();
   *   console.error(`${c.method} ${c.name ?? ''} round ${c.round}: ${c.outcome?.type} in ${performance.now() - started} ms`);
   * });
   */
  use(...middleware: Middleware[]): this {
    this.#app.middleware.push(...middleware);
    return this;
  }

  /**
   * Registers a tool.
   *
   * @example
   * server.tool('greet', { description: 'Greets you', input: z.object({ formal: z.boolean() }) }, async (args, ctx) => {
   *   const name = await ctx.elicit('What is your name?', ask.text({ title: 'Name' }));
   *   return name.action === 'accept' ? `Hello, ${name.value}!` : 'Hello!';
   * });
   */
  tool<I extends ArgsSchema | undefined = undefined, F extends ArgNames<I> = never>(
    name: string,
    config: ToolConfig<I, F>,
    handler: ToolHandler<I, F>,
  ): this {
    this.#app.tools.add(name, config, handler);
    this.#app.changes.emit({ kind: 'tools' });
    return this;
  }

  /** Registers a prompt; its handler may ask questions before it answers. */
  prompt<A extends ArgsSchema | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): this {
    this.#app.prompts.add(name, config, handler);
    this.#app.changes.emit({ kind: 'prompts' });
    return this;
  }

  /**
   * Registers a resource, or a resource template when `uri` contains `{variables}` (RFC 6570); the
   * handler receives the variables in `params`. A URI nothing matches is answered `-32602` with
   * `data: { uri }`; a template's handler says the same for one it matched with
   * `throw new ResourceNotFoundError(uri)`.
   *
   * @example
   * server.resource('orders://{id}', { name: 'order' }, ({ uri, params }) => {
   *   const order = orders.get(params.id!); // a matched template always has its variables
   *   if (!order) throw new ResourceNotFoundError(uri);
   *   return resourceResult({ uri, text: JSON.stringify(order) });
   * });
   */
  resource(uri: string, config: ResourceConfig, handler: ResourceHandler): this {
    this.#app.resources.add(uri, config, handler);
    this.#app.changes.emit({ kind: 'resources' });
    return this;
  }

  /**
   * Removes a tool registered earlier; the clients that listen hear `notifications/tools/list_changed`.
   * Returns false (and tells nobody) when no tool has that name. A call of it already running goes on.
   *
   * @example
   * server.tool('open_returns', {}, () => 'Returns are open.');
   * server.removeTool('open_returns');
   */
  removeTool(name: string): boolean {
    if (!this.#app.tools.remove(name)) return false;
    this.#app.changes.emit({ kind: 'tools' });
    return true;
  }

  /** Removes a prompt registered earlier, as {@link removeTool} does a tool. */
  removePrompt(name: string): boolean {
    if (!this.#app.prompts.remove(name)) return false;
    this.#app.changes.emit({ kind: 'prompts' });
    return true;
  }

  /** Removes a resource or resource template (by the URI or template it was registered with), as {@link removeTool} does a tool. */
  removeResource(uri: string): boolean {
    if (!this.#app.resources.remove(uri)) return false;
    this.#app.changes.emit({ kind: 'resources' });
    return true;
  }

  /**
   * Tells the clients that subscribed to `uri` that it changed (`notifications/resources/updated`):
   * 2025 sessions that sent `resources/subscribe`, and 2026-07-28 `subscriptions/listen` streams
   * whose `resourceSubscriptions` name it. Registering a tool, prompt or resource while serving
   * sends the matching `list_changed` the same way.
   *
   * @example
   * const order = { id: 'A-1041' };
   * await db.saveOrder(order);
   * server.notifyResourceUpdated(`shop://orders/${order.id}`);
   */
  notifyResourceUpdated(uri: string): void {
    this.#app.changes.emit({ kind: 'resource', uri });
  }

  /**
   * Tells `watcher` when a resource gets its first subscriber (`watched: true`: a 2025 session's
   * `resources/subscribe`, or a 2026-07-28 `subscriptions/listen` filter naming it) and when it
   * loses its last (`false`): for a server that must itself subscribe somewhere to hear of changes
   * (a gateway subscribing upstream). Returns the function that stops telling it.
   *
   * @example
   * server.onSubscriptions((uri, watched) => (watched ? feed.follow(uri) : feed.unfollow(uri)));
   */
  onSubscriptions(watcher: (uri: string, watched: boolean) => void): () => void {
    return this.#app.changes.onWatch(watcher);
  }

  /**
   * Serves 2026-07-28 tool calls over HTTP with `handler` before Parley's own handling, for a
   * server that passes calls on (a gateway) and has a cheaper way to serve some of them: it is
   * offered each `tools/call` after every check of the endpoint, and returns `undefined` to have
   * it served as usual, or the call's outcome. Its rounds carry its own sealed state (bound as a
   * call's own is, never opened as one); a round of Parley's own never reaches it, and it may hand
   * a call back to Parley at any round (`serve`). Middleware marked `directCalls` (such as
   * `telemetry()`) runs around each call it serves, once, a hand-back included; while any other
   * middleware is registered (`use`) it is skipped, so that middleware sees every call. Stdio and
   * 2025 sessions never reach it. One handler at a time; `undefined` removes it.
   *
   * @example
   * server.directToolCalls((call) =>
   *   call.name === 'ping' ? Promise.resolve({ result: { content: [{ type: 'text', text: 'pong' }] } }) : undefined,
   * );
   */
  directToolCalls(handler: DirectToolCalls | undefined): void {
    this.#app.directToolCalls = handler;
  }

  /** The resource URIs some client is subscribed to now. */
  get subscribedUris(): string[] {
    return this.#app.changes.watched;
  }

  /**
   * Registers the page of one kind of URL flow. The page is served under the flow's URL only after
   * the browser's signed-in user was verified to be the user who made the call.
   *
   * @example
   * server.flow('store-account', async (request, flow, { complete }) => {
   *   if (request.method === 'POST') {
   *     await complete({ account: `${flow.principal}@store` });
   *     return messagePage(200, 'Connected', 'Go back to your app.');
   *   }
   *   return htmlPage(200, 'Connect your store account', '<form method="post"><button>Connect</button></form>');
   * });
   */
  flow(kind: string, page: FlowPage): this {
    if (!this.#app.flows)
      throw new TypeError('server.flow() needs createServer({ flows: { publicUrl, session, signIn } }).');
    this.#app.flows.register(kind, page);
    return this;
  }

  /**
   * Serves this server's pages: its URL flows' pages and its question pages (for servers mounted
   * with {@link endpoint} in another HTTP server; {@link listen} mounts them itself). `undefined`
   * when the request is not for one.
   *
   * @example
   * const endpoint = server.endpoint();
   * const fetch = async (request: Request): Promise<Response> =>
   *   new URL(request.url).pathname === '/mcp'
   *     ? endpoint.fetch(request)
   *     : ((await server.pages(request)) ?? new Response('Not found', { status: 404 }));
   */
  async pages(request: Request): Promise<Response | undefined> {
    const { flows, pages } = this.#app;
    return (await flows?.handle(request)) ?? (await pages?.handle(request));
  }

  /** Serves one client over this process's stdin/stdout (either era). */
  stdio(options?: StdioOptions): StdioServerHandle {
    return serveOverStdio(this.#app, options);
  }

  /**
   * Serves one HTTP endpoint (default `http://127.0.0.1:<port>/mcp`) for both eras, with Host and
   * Origin checks and a body limit.
   */
  listen(options?: ListenOptions): Promise<Listening> {
    return listen(this.#app, options);
  }

  /** The endpoint as a web-standard `fetch` handler, to mount in another HTTP server. */
  endpoint(options?: EndpointOptions): Endpoint {
    return createEndpoint(this.#app, options);
  }
}

/** Creates a Parley server. */
export function createServer(options: ServerOptions): ParleyServer {
  return new ParleyServer(options);
}
