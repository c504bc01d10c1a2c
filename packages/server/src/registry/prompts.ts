import type { Icon, Prompt, PromptArgument } from '@modelcontextprotocol/server';
import type { Completers, ParleyContext, PromptReturn } from '../types.js';
import { type ArgsOf, type ArgsSchema, toJsonSchema } from './schema.js';

/** How a prompt presents itself in `prompts/list`: its title, description, arguments, icons and completions. */
export interface PromptConfig<A extends ArgsSchema | undefined = undefined> {
  readonly title?: string;
  readonly description?: string;
  /** The prompt's arguments: a zod v4 object of string fields. */
  readonly args?: A;
  readonly icons?: Icon[];
  readonly _meta?: Record<string, unknown>;
  /**
   * Suggestions for argument values (`completion/complete`), by argument name.
   *
   * @example
   * server.prompt(
   *   'review_code',
   *   {
   *     args: z.object({ language: z.string() }),
   *     complete: { language: (value) => ['typescript', 'python', 'rust'].filter((l) => l.startsWith(value)) },
   *   },
   *   ({ language }) => `Review this ${language} code.`,
   * );
   */
  readonly complete?: Completers;
}

/** A prompt's body: gets the checked arguments and the context, returns the messages (or a string); may ask with `ctx.elicit`. */
export type PromptHandler<A extends ArgsSchema | undefined> = (
  args: ArgsOf<A>,
  ctx: ParleyContext,
) => PromptReturn | Promise<PromptReturn>;

export interface RegisteredPrompt {
  readonly name: string;
  readonly args: ArgsSchema | undefined;
  readonly handler: PromptHandler<ArgsSchema | undefined>;
  readonly listing: Prompt;
  readonly complete: Completers | undefined;
}

function promptArguments(schema: ArgsSchema | undefined): PromptArgument[] | undefined {
  if (!schema) return undefined;
  const json = toJsonSchema(schema, 'input') as {
    properties?: Record<string, { title?: string; description?: string }>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    ...(property.title !== undefined && { title: property.title }),
    ...(property.description !== undefined && { description: property.description }),
    required: required.has(name),
  }));
}

export class PromptRegistry {
  readonly #prompts = new Map<string, RegisteredPrompt>();
  #listing: Prompt[] | undefined;

  add<A extends ArgsSchema | undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): void {
    if (this.#prompts.has(name))
      throw new TypeError(`A prompt named ${JSON.stringify(name)} is already registered.`);
    const args = promptArguments(config.args);
    const listing: Prompt = {
      name,
      ...(config.title !== undefined && { title: config.title }),
      ...(config.description !== undefined && { description: config.description }),
      ...(args && { arguments: args }),
      ...(config.icons && { icons: config.icons }),
      ...(config._meta && { _meta: config._meta }),
    };
    this.#prompts.set(name, {
      name,
      args: config.args,
      handler: handler as PromptHandler<ArgsSchema | undefined>,
      listing,
      complete: config.complete,
    });
    this.#listing = undefined;
  }

  get(name: string): RegisteredPrompt | undefined {
    return this.#prompts.get(name);
  }

  /** Removes the prompt named `name`; false when there is none. */
  remove(name: string): boolean {
    if (!this.#prompts.delete(name)) return false;
    this.#listing = undefined;
    return true;
  }

  get size(): number {
    return this.#prompts.size;
  }

  list(): Prompt[] {
    this.#listing ??= [...this.#prompts.values()].map((prompt) => prompt.listing);
    return this.#listing;
  }
}
