import type { StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { App, type ServerOptions } from './app.js';
import type { PromptConfig, PromptHandler } from './registry/prompts.js';
import type { ResourceConfig, ResourceHandler } from './registry/resources.js';
import type { ArgsSchema } from './registry/schema.js';
import type { ToolConfig, ToolHandler } from './registry/tools.js';
import { createEndpoint, type Endpoint, type EndpointOptions } from './serve/http-endpoint.js';
import { type Listening, type ListenOptions, listen } from './serve/listen.js';
import { type StdioOptions, serveOverStdio } from './serve/stdio.js';

/**
 * A Parley server: tools, prompts and resources whose handlers can ask the person questions with
 * `ctx.elicit()`, served over stdio or one HTTP endpoint, on the 2026-07-28 and 2025 protocol eras.
 */
export class ParleyServer {
  readonly #app: App;

  constructor(options: ServerOptions) {
    this.#app = new App(options);
  }

  /** The server's name and version. */
  get info(): { name: string; version: string; title?: string } {
    return this.#app.info;
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
  tool<I extends ArgsSchema | undefined = undefined>(
    name: string,
    config: ToolConfig<I>,
    handler: ToolHandler<I>,
  ): this {
    this.#app.tools.add(name, config, handler);
    return this;
  }

  /** Registers a prompt; its handler may ask questions before it answers. */
  prompt<A extends ArgsSchema | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): this {
    this.#app.prompts.add(name, config, handler);
    return this;
  }

  /**
   * Registers a resource, or a resource template when `uri` contains `{variables}` (RFC 6570); the
   * handler receives the variables in `params`.
   */
  resource(uri: string, config: ResourceConfig, handler: ResourceHandler): this {
    this.#app.resources.add(uri, config, handler);
    return this;
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
