import type { Icon, Tool, ToolAnnotations } from '@modelcontextprotocol/server';
import type { ParleyContext, ToolReturn } from '../types.js';
import { type ArgsOf, type ArgsSchema, toJsonSchema } from './schema.js';

/** How a tool presents itself. */
export interface ToolConfig<I extends ArgsSchema | undefined = undefined> {
  readonly title?: string;
  readonly description?: string;
  /** The tool's arguments: a zod v4 object (or any Standard Schema with JSON Schema output). */
  readonly input?: I;
  /** The shape of `structuredContent` the tool returns. */
  readonly output?: ArgsSchema;
  readonly annotations?: ToolAnnotations;
  readonly icons?: Icon[];
  readonly _meta?: Record<string, unknown>;
}

export type ToolHandler<I extends ArgsSchema | undefined> = (
  args: ArgsOf<I>,
  ctx: ParleyContext,
) => ToolReturn | Promise<ToolReturn>;

export interface RegisteredTool {
  readonly name: string;
  readonly input: ArgsSchema | undefined;
  readonly output: ArgsSchema | undefined;
  readonly outputJson: Readonly<Record<string, unknown>> | undefined;
  readonly handler: ToolHandler<ArgsSchema | undefined>;
  readonly listing: Tool;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The tools of one server, with their `tools/list` entries computed once. */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  #listing: Tool[] | undefined;

  add<I extends ArgsSchema | undefined>(name: string, config: ToolConfig<I>, handler: ToolHandler<I>): void {
    if (!TOOL_NAME.test(name)) {
      throw new TypeError(
        `Tool name ${JSON.stringify(name)} is not valid: use 1 to 128 of A-Z a-z 0-9 _ - .`,
      );
    }
    if (this.#tools.has(name))
      throw new TypeError(`A tool named ${JSON.stringify(name)} is already registered.`);
    const outputJson = config.output ? toJsonSchema(config.output, 'output') : undefined;
    const listing: Tool = {
      name,
      ...(config.title !== undefined && { title: config.title }),
      ...(config.description !== undefined && { description: config.description }),
      inputSchema: toJsonSchema(config.input, 'input') as Tool['inputSchema'],
      ...(outputJson && { outputSchema: outputJson as Tool['outputSchema'] }),
      ...(config.annotations && { annotations: config.annotations }),
      ...(config.icons && { icons: config.icons }),
      ...(config._meta && { _meta: config._meta }),
    };
    this.#tools.set(name, {
      name,
      input: config.input,
      output: config.output,
      outputJson,
      handler: handler as ToolHandler<ArgsSchema | undefined>,
      listing,
    });
    this.#listing = undefined;
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  get size(): number {
    return this.#tools.size;
  }

  list(): Tool[] {
    this.#listing ??= [...this.#tools.values()].map((tool) => tool.listing);
    return this.#listing;
  }
}
