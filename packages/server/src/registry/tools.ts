import type { Icon, Tool, ToolAnnotations } from '@modelcontextprotocol/server';
import type { AskMissingOptions, WithFields } from '../ask-types.js';
import type { ParleyContext, ToolReturn } from '../types.js';
import { type ArgumentsSource, type MissingSettings, missingSettings } from './missing-args.js';
import { type ArgsOf, type ArgsSchema, toJsonSchema } from './schema.js';

/** The names of a schema's arguments. */
export type ArgNames<I> = keyof ArgsOf<I> & string;

/** How a tool presents itself. */
export interface ToolConfig<I extends ArgsSchema | undefined = undefined, F extends ArgNames<I> = never> {
  readonly title?: string;
  readonly description?: string;
  /** The tool's arguments: a zod v4 object (or any Standard Schema with JSON Schema output). */
  readonly input?: I;
  /** The shape of `structuredContent` the tool returns. */
  readonly output?: ArgsSchema;
  readonly annotations?: ToolAnnotations;
  readonly icons?: Icon[];
  readonly _meta?: Record<string, unknown>;
  /**
   * Whether a call may run as a task (the `io.modelcontextprotocol/tasks` extension, 2026-07-28):
   * the client gets a task id at once and polls `tasks/get`; questions the handler asks meanwhile
   * reach the person through the task (`input_required`, answered with `tasks/update`).
   * `'optional'` runs as a task when the client declared the extension and as a plain call
   * otherwise; `'required'` refuses clients that did not declare it (`-32021`). By default the task
   * starts before the handler runs; with `start: 'manual'` the call stays a plain call (it may ask
   * questions round by round) until the handler calls `await ctx.runAsTask()`.
   */
  readonly task?: TaskSupport | { readonly support: TaskSupport; readonly start?: 'call' | 'manual' };
  /**
   * Arguments the caller left out or got wrong are asked of the person, in one form, instead of
   * failing the call: those the input schema requires, and the optional ones named in `fields`.
   * The handler runs with the arguments complete and checked. Arguments a form cannot ask (objects,
   * lists of objects) still fail with the usual invalid-arguments error, and so does a call from a
   * client that cannot be asked at all. A person who declines gets no call of the handler. To ask
   * with defaults worked out per call, use `ctx.elicitMissing(args, options)` in the handler.
   *
   * @example
   * server.tool(
   *   'book_return',
   *   { input: z.object({ boxes: z.int().min(1).max(3).optional() }), askMissing: { fields: ['boxes'] } },
   *   async ({ boxes }) => `Booked ${boxes} box(es).`, // boxes: number
   * );
   */
  readonly askMissing?: true | AskMissingOptions<ArgsOf<I>, F>;
}

/** Whether a tool may run as a task, or must. */
export type TaskSupport = 'optional' | 'required';

/** How a tool runs as a task, resolved from its config. */
export interface TaskMode {
  readonly support: TaskSupport;
  readonly start: 'call' | 'manual';
}

/** A tool's body: gets the checked arguments and the context, returns the result (or a string); may ask with `ctx.elicit`. */
export type ToolHandler<I extends ArgsSchema | undefined, F extends ArgNames<I> = never> = (
  args: WithFields<ArgsOf<I>, F>,
  ctx: ParleyContext,
) => ToolReturn | Promise<ToolReturn>;

/** A tool that asks for its missing arguments: its schema's facts and how it asks. */
export interface MissingArguments {
  readonly source: ArgumentsSource;
  readonly settings: MissingSettings;
}

export interface RegisteredTool {
  readonly name: string;
  readonly input: ArgsSchema | undefined;
  readonly output: ArgsSchema | undefined;
  readonly outputJson: Readonly<Record<string, unknown>> | undefined;
  readonly handler: ToolHandler<ArgsSchema | undefined>;
  readonly listing: Tool;
  readonly task: TaskMode | undefined;
  /** How the tool's arguments are asked for (`askMissing`), and for `ctx.elicitMissing`. */
  readonly missing: MissingArguments | undefined;
  /** What `ctx.elicitMissing` reads: the tool's schemas (a tool with an input schema). */
  readonly source: ArgumentsSource | undefined;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The tools of one server, with their `tools/list` entries computed once. */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  #listing: Tool[] | undefined;

  add<I extends ArgsSchema | undefined, F extends ArgNames<I>>(
    name: string,
    config: ToolConfig<I, F>,
    handler: ToolHandler<I, F>,
  ): void {
    if (!TOOL_NAME.test(name)) {
      throw new TypeError(
        `Tool name ${JSON.stringify(name)} is not valid: use 1 to 128 of A-Z a-z 0-9 _ - .`,
      );
    }
    if (this.#tools.has(name))
      throw new TypeError(`A tool named ${JSON.stringify(name)} is already registered.`);
    const outputJson = config.output ? toJsonSchema(config.output, 'output') : undefined;
    const task: TaskMode | undefined =
      config.task === undefined
        ? undefined
        : typeof config.task === 'string'
          ? { support: config.task, start: 'call' }
          : { support: config.task.support, start: config.task.start ?? 'call' };
    const listing: Tool = {
      name,
      ...(config.title !== undefined && { title: config.title }),
      ...(config.description !== undefined && { description: config.description }),
      inputSchema: toJsonSchema(config.input, 'input') as Tool['inputSchema'],
      ...(outputJson && { outputSchema: outputJson as Tool['outputSchema'] }),
      ...(config.annotations && { annotations: config.annotations }),
      ...(config.icons && { icons: config.icons }),
      ...(config._meta && { _meta: config._meta }),
      ...(task && { execution: { taskSupport: task.support } }),
    };
    const source: ArgumentsSource | undefined = config.input && {
      tool: name,
      label: config.title ?? name,
      input: config.input,
      json: listing.inputSchema as Readonly<Record<string, unknown>>,
    };
    if (config.askMissing !== undefined && source === undefined)
      throw new TypeError(
        `Tool ${name} has askMissing but no input schema to ask from; add input: z.object({...}).`,
      );
    const missing =
      config.askMissing === undefined || source === undefined
        ? undefined
        : { source, settings: missingSettings(source, config.askMissing as never) };
    this.#tools.set(name, {
      name,
      input: config.input,
      output: config.output,
      outputJson,
      handler: handler as unknown as ToolHandler<ArgsSchema | undefined>,
      listing,
      task,
      missing,
      source,
    });
    this.#listing = undefined;
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  /** Removes the tool named `name`; false when there is none. */
  remove(name: string): boolean {
    if (!this.#tools.delete(name)) return false;
    this.#listing = undefined;
    return true;
  }

  get size(): number {
    return this.#tools.size;
  }

  /** Whether any tool may run as a task (the server then offers the tasks extension). */
  get runsTasks(): boolean {
    for (const tool of this.#tools.values()) if (tool.task) return true;
    return false;
  }

  list(): Tool[] {
    this.#listing ??= [...this.#tools.values()].map((tool) => tool.listing);
    return this.#listing;
  }
}
