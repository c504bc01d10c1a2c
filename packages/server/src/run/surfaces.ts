import {
  ProtocolError,
  ProtocolErrorCode,
  type RequestTypeMap,
  ResourceNotFoundError,
  type Result,
  type Server,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { PARLEY_RESUME_META } from '@parley/core';
import type { App } from '../app.js';
import { askForMissing, notGiven } from '../ask/ask-missing.js';
import type { CallSpec } from '../eras/era.js';
import type { ParkedOutcome } from '../eras/parked.js';
import { ElicitationUnavailable } from '../errors.js';
import { PAGES_META } from '../pages/page-types.js';
import { type ArgumentsSource, type MissingPlan, planMissing } from '../registry/missing-args.js';
import { type ArgsCheck, checkArgs, validateArgs } from '../registry/schema.js';
import type { RegisteredTool, TaskMode } from '../registry/tools.js';
import type { ParleyContext } from '../types.js';
import { failedToolResult, toCallToolResult, toPromptResult, toReadResourceResult } from './results.js';

/** What a request calls, or the result that answers it without a call. */
export type FoundOrRefused = FoundCall | { readonly refused: Result };

/** The request that runs a handler of a surface. */
export type CallMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** One call found in the app, with arguments that passed their schema. */
export interface FoundCall {
  readonly spec: CallSpec;
  /** How the server names it to the log and to the caller ("Tool greet"). */
  readonly what: string;
  /** Runs the handler (call it as `found.handler(ctx)`); never throws, a failure is a rejection. */
  handler(ctx: ParleyContext): Promise<unknown>;
  /** Turns what the handler returned into the method's result. */
  finish(value: unknown, server: Server): Result | Promise<Result>;
  /** The result of a call parked at a page (the person answers there, then the call comes again). */
  parked(outcome: ParkedOutcome): Result;
  /** For a tool that may run as a task: how. */
  readonly task?: TaskMode | undefined;
  /** A tool's arguments, for `ctx.elicitMissing` (a tool with an input schema). */
  readonly argumentsSource?: ArgumentsSource | undefined;
}

/**
 * One kind of thing a server registers (tools, prompts, resources): how it is listed and how one is
 * called. The request handlers for every surface are built from this table by the same code, with
 * one error policy (see `run/sdk-server.ts`); only the shape a failure takes differs.
 */
export interface Surface<M extends CallMethod = CallMethod> {
  /** The server capability it declares, when the app registered anything of it. */
  readonly capability: keyof Pick<ServerCapabilities, 'tools' | 'prompts' | 'resources'>;
  present(app: App): boolean;
  /** The list requests and what they answer. */
  readonly lists: Readonly<Partial<Record<keyof RequestTypeMap, (app: App) => Result>>>;
  readonly method: M;
  /**
   * Finds what the request calls and checks its arguments. Throws (or rejects with) a ProtocolError
   * for a request that cannot be served, or returns `{ refused }`, a result that answers it without
   * a call. A promise only when it has to wait (an asynchronous schema): a 2025-era call keeps every
   * link of its chain while its person answers.
   */
  find(app: App, params: RequestTypeMap[M]['params']): FoundOrRefused | Promise<FoundOrRefused>;
  /** The shape of a failed call, given what the caller may read: a result, or a thrown JSON-RPC error. */
  fail(message: string, error: unknown): Result;
}

const tools: Surface<'tools/call'> = {
  capability: 'tools',
  present: (app) => app.declares('tools'),
  lists: { 'tools/list': (app) => ({ tools: app.tools.list() }) },
  method: 'tools/call',
  find(app, params) {
    const { name } = params;
    const args = params.arguments ?? {};
    const tool = app.tools.get(name);
    if (!tool)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool '${name}'; call tools/list to see the tools.`,
      );
    const validated = checkArgs(tool.input, args);
    return validated instanceof Promise
      ? validated.then((checked) => toolCallOf(tool, args, checked))
      : toolCallOf(tool, args, validated);
  },
  // A tool has an error result: the caller (and its model) reads the failure there.
  fail: (message) => failedToolResult(message),
};

/**
 * The call of `tool`, or the error result of its arguments' failed check. A tool that asks for its
 * missing arguments (`askMissing`) is called with a plan of what to ask, unless nothing it lacks
 * can be asked.
 */
function toolCallOf(tool: RegisteredTool, args: unknown, validated: ArgsCheck): FoundOrRefused {
  if (tool.missing) {
    const plan = planMissing(tool.missing.source, args, validated, tool.missing.settings);
    if (plan.kind === 'refuse') return { refused: failedToolResult(plan.message) };
    return new ToolCall(tool, args, plan.kind === 'complete' ? plan.value : undefined, plan);
  }
  if (!validated.ok)
    return { refused: failedToolResult(`Invalid arguments for tool ${tool.name}: ${validated.message}`) };
  return new ToolCall(tool, args, validated.value, undefined);
}

/**
 * What `run` returns, as a promise: its own promise when it returns one, so a call waiting on the
 * person holds no extra link around it (an `async` wrapper would), and a rejection when it throws.
 */
function promised(run: () => unknown): Promise<unknown> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * One call of a tool, with arguments that passed its schema. A class (its methods on the prototype)
 * rather than closures: a 2025-era call keeps it while the person answers.
 */
class ToolCall implements FoundCall {
  readonly spec: CallSpec;
  readonly #tool: RegisteredTool;
  readonly #value: unknown;
  /** What to ask the person before the handler runs (`askMissing`), when the arguments lack anything. */
  readonly #ask: Extract<MissingPlan, { kind: 'ask' }> | undefined;

  constructor(tool: RegisteredTool, args: unknown, value: unknown, plan: MissingPlan | undefined) {
    this.spec = { method: 'tools/call', target: tool.name, args };
    this.#tool = tool;
    this.#value = value;
    this.#ask = plan?.kind === 'ask' ? plan : undefined;
  }

  get what(): string {
    return `Tool ${this.#tool.name}`;
  }

  get task(): TaskMode | undefined {
    return this.#tool.task;
  }

  get argumentsSource(): ArgumentsSource | undefined {
    return this.#tool.source;
  }

  handler(ctx: ParleyContext): Promise<unknown> {
    const tool = this.#tool;
    if (tool.task?.start === 'call') return this.#runAsTask(ctx);
    if (this.#ask) return this.#askThenRun(ctx);
    return promised(() => tool.handler(this.#value as never, ctx));
  }

  async #runAsTask(ctx: ParleyContext): Promise<unknown> {
    await ctx.runAsTask();
    if (this.#ask) return this.#askThenRun(ctx);
    return this.#tool.handler(this.#value as never, ctx);
  }

  /** Asks the person for the arguments the caller did not give, then runs the handler with all of them. */
  async #askThenRun(ctx: ParleyContext): Promise<unknown> {
    const tool = this.#tool;
    const plan = this.#ask!;
    const answer = await askForMissing(ctx, tool.missing!.source, plan, tool.missing!.settings);
    if (answer.action !== 'accept') return notGiven(tool.name, answer.action, plan.asked);
    return tool.handler(answer.value as never, ctx);
  }

  async finish(value: unknown, server: Server): Promise<Result> {
    const tool = this.#tool;
    const result = toCallToolResult(value as never);
    if (tool.output && !result.isError) {
      const checked = await validateArgs(tool.output, result.structuredContent);
      if (!checked.ok)
        throw new Error(
          `Tool ${tool.name} returned structuredContent that does not match its output schema: ${checked.message}`,
        );
    }
    return server.projectCallToolResult(result, tool.outputJson);
  }

  parked(outcome: ParkedOutcome): Result {
    // A tool with an output schema cannot send structured content it does not have yet: the result
    // is marked as an error, which clients do not check against the schema.
    return {
      content: [{ type: 'text', text: outcome.text }],
      ...(this.#tool.output && { isError: true }),
      _meta: pagesMeta(outcome),
    };
  }
}

/** The links of a parked call, for hosts that show them as they show a URL question. */
function pagesMeta(outcome: ParkedOutcome): Record<string, unknown> {
  return {
    [PAGES_META]: outcome.links.map(({ key, url, message }) => ({ key, url, message })),
    ...(outcome.resume !== undefined && { [PARLEY_RESUME_META]: outcome.resume }),
  };
}

/** Prompts and resources have no error result: a failure becomes a JSON-RPC error. */
function failAsError(message: string, error: unknown): never {
  const code =
    error instanceof ElicitationUnavailable
      ? ProtocolErrorCode.InvalidRequest
      : ProtocolErrorCode.InternalError;
  throw new ProtocolError(code, message);
}

const prompts: Surface<'prompts/get'> = {
  capability: 'prompts',
  present: (app) => app.declares('prompts'),
  lists: { 'prompts/list': (app) => ({ prompts: app.prompts.list() }) },
  method: 'prompts/get',
  async find(app, params) {
    const { name } = params;
    const args = params.arguments ?? {};
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
    return {
      spec: { method: 'prompts/get', target: name, args },
      what: `Prompt ${name}`,
      handler: (ctx) => promised(() => prompt.handler(validated.value as never, ctx)),
      finish: (value) => toPromptResult(value as never),
      parked: (outcome) => ({
        messages: [{ role: 'user', content: { type: 'text', text: outcome.text } }],
        _meta: pagesMeta(outcome),
      }),
    };
  },
  fail: failAsError,
};

const resources: Surface<'resources/read'> = {
  capability: 'resources',
  present: (app) => app.declares('resources'),
  lists: {
    'resources/list': (app) => ({ resources: app.resources.list() }),
    'resources/templates/list': (app) => ({ resourceTemplates: app.resources.listTemplates() }),
  },
  method: 'resources/read',
  async find(app, params) {
    const { uri } = params;
    const found = app.resources.resolve(uri);
    if (!found) throw new ResourceNotFoundError(uri);
    const { resource, params: variables } = found;
    return {
      spec: { method: 'resources/read', target: uri, args: {} },
      what: `Resource ${JSON.stringify(uri)}`,
      handler: (ctx) => promised(() => resource.handler({ uri, params: variables }, ctx)),
      finish: (value) => toReadResourceResult(value as never, uri, resource.mimeType),
      parked: (outcome) => ({
        contents: [{ uri, mimeType: 'text/plain', text: outcome.text }],
        _meta: pagesMeta(outcome),
      }),
    };
  },
  fail: failAsError,
};

/** Everything a server can register, in the order its handlers are set up. */
export const SURFACES: readonly Surface[] = [tools, prompts, resources] as unknown as readonly Surface[];
