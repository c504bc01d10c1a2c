import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import { UriTemplate } from '@modelcontextprotocol/server';
import type { Completers, ParleyContext, ParleyServer } from '@parley/server';
import { TASKS_EXTENSION } from '../relay/capabilities.js';
import type { RelayedTool } from '../relay/direct-relay.js';
import { type RelaySettings, relayCall } from '../relay/relay-call.js';
import type { Upstream } from '../upstream/upstream.js';
import { passthroughSchema, promptArgumentsSchema } from './passthrough-schema.js';

type Kind = 'tool' | 'prompt' | 'resource';

interface Entry {
  readonly upstream: string;
  /** The listing it was registered from, as JSON: a change re-registers it. */
  readonly listing: string;
}

/** What a host's completion request may get at most from an upstream. */
const MAX_COMPLETIONS = 100;

/**
 * The gateway's side of every upstream's lists: each upstream tool, prompt, resource and template
 * registered on the gateway's Parley server under the host's name for it (`<upstream>_<name>` with
 * several upstreams, the upstream's own with one; resources keep their URIs), kept in step with
 * the upstream's lists. Every one of them runs {@link relayCall}.
 */
export class Mounts {
  readonly #server: ParleyServer;
  readonly #settings: RelaySettings;
  readonly #prefixed: boolean;
  readonly #log: (level: 'warn' | 'info', message: string) => void;
  readonly #entries: Record<Kind, Map<string, Entry>> = {
    tool: new Map(),
    prompt: new Map(),
    resource: new Map(),
  };
  readonly #templates = new Map<string, UriTemplate>();
  /** The tools registered, by the host's name: which upstream's, and as it listed it. */
  readonly #tools = new Map<string, RelayedTool>();

  constructor(
    server: ParleyServer,
    settings: RelaySettings,
    prefixed: boolean,
    log: (level: 'warn' | 'info', message: string) => void,
  ) {
    this.#server = server;
    this.#settings = settings;
    this.#prefixed = prefixed;
    this.#log = log;
  }

  /** The host's name for an upstream's tool or prompt. */
  exposedName(upstream: string, name: string): string {
    return this.#prefixed ? `${upstream}_${name}` : name;
  }

  /**
   * Brings the gateway's lists in step with `upstream`'s: registers what is new or changed,
   * removes what it no longer lists. Returns the names another upstream already took (none are
   * registered twice); the gateway refuses to start with any.
   */
  sync(upstream: Upstream): string[] {
    const { tools, prompts, resources, templates } = upstream.catalog;
    const collisions: string[] = [];
    const wanted: Record<Kind, Map<string, () => void>> = {
      tool: new Map(),
      prompt: new Map(),
      resource: new Map(),
    };
    for (const tool of tools)
      this.#want(
        wanted.tool,
        'tool',
        this.exposedName(upstream.name, tool.name),
        upstream,
        tool,
        collisions,
        (name) => this.#addTool(upstream, name, tool),
      );
    for (const prompt of prompts)
      this.#want(
        wanted.prompt,
        'prompt',
        this.exposedName(upstream.name, prompt.name),
        upstream,
        prompt,
        collisions,
        (name) => this.#addPrompt(upstream, name, prompt),
      );
    for (const resource of resources)
      this.#want(wanted.resource, 'resource', resource.uri, upstream, resource, collisions, (uri) =>
        this.#addResource(upstream, uri, resource),
      );
    for (const template of templates)
      this.#want(wanted.resource, 'resource', template.uriTemplate, upstream, template, collisions, (uri) =>
        this.#addTemplate(upstream, uri, template),
      );
    for (const kind of ['tool', 'prompt', 'resource'] as const) {
      for (const [name, entry] of this.#entries[kind])
        if (entry.upstream === upstream.name && !wanted[kind].has(name)) this.#remove(kind, name);
      for (const [, add] of wanted[kind]) add();
    }
    return collisions;
  }

  /** Removes everything of `upstream` (it was removed from the configuration). */
  unmount(upstream: string): void {
    for (const kind of ['tool', 'prompt', 'resource'] as const)
      for (const [name, entry] of this.#entries[kind])
        if (entry.upstream === upstream) this.#remove(kind, name);
  }

  /** The tool a host calls `name`: its upstream and the upstream's own listing of it. */
  toolOf(name: string): RelayedTool | undefined {
    return this.#tools.get(name);
  }

  /** Which upstream serves `uri`: the one that listed it, or whose template it matches. */
  ownerOf(uri: string): string | undefined {
    const listed = this.#entries.resource.get(uri)?.upstream;
    if (listed !== undefined) return listed;
    for (const [name, entry] of this.#entries.resource) {
      if (!UriTemplate.isTemplate(name)) continue;
      let template = this.#templates.get(name);
      if (template === undefined) {
        template = new UriTemplate(name);
        this.#templates.set(name, template);
      }
      if (template.match(uri)) return entry.upstream;
    }
    return undefined;
  }

  #want(
    wanted: Map<string, () => void>,
    kind: Kind,
    name: string,
    upstream: Upstream,
    listing: object,
    collisions: string[],
    add: (name: string) => void,
  ): void {
    const entries = this.#entries[kind];
    const known = entries.get(name);
    if ((known !== undefined && known.upstream !== upstream.name) || wanted.has(name)) {
      collisions.push(
        `${kind} ${JSON.stringify(name)} of ${upstream.name} (${known && known.upstream !== upstream.name ? `also offered by ${known.upstream}` : 'listed twice'})`,
      );
      return;
    }
    const text = JSON.stringify(listing);
    if (known?.listing === text) {
      wanted.set(name, () => {});
      return;
    }
    wanted.set(name, () => {
      if (known !== undefined) this.#remove(kind, name);
      try {
        add(name);
        entries.set(name, { upstream: upstream.name, listing: text });
      } catch (error) {
        this.#log(
          'warn',
          `${upstream.name}: its ${kind} ${JSON.stringify(name)} is not passed on: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
  }

  #remove(kind: Kind, name: string): void {
    this.#entries[kind].delete(name);
    this.#tools.delete(name);
    if (kind === 'tool') this.#server.removeTool(name);
    else if (kind === 'prompt') this.#server.removePrompt(name);
    else this.#server.removeResource(name);
  }

  #relay(
    upstream: Upstream,
    method: 'tools/call' | 'prompts/get' | 'resources/read',
    params: Record<string, unknown>,
    name: string,
    ctx: ParleyContext,
  ) {
    return relayCall(this.#settings, { upstream, call: { method, params }, name }, ctx) as never;
  }

  #addTool(upstream: Upstream, name: string, tool: Tool): void {
    this.#server.tool(
      name,
      {
        ...(tool.title !== undefined && { title: tool.title }),
        ...(tool.description !== undefined && { description: tool.description }),
        input: passthroughSchema(tool.inputSchema),
        ...(tool.outputSchema !== undefined && { output: passthroughSchema(tool.outputSchema) }),
        ...(tool.annotations !== undefined && { annotations: tool.annotations }),
        ...(tool.icons !== undefined && { icons: tool.icons }),
        ...(tool._meta !== undefined && { _meta: tool._meta }),
        ...taskSupport(tool, upstream),
      },
      (args, ctx) => this.#relay(upstream, 'tools/call', { name: tool.name, arguments: args }, name, ctx),
    );
    this.#tools.set(name, { upstream, tool, paramHeaders: declaresParamHeaders(tool) });
  }

  #addPrompt(upstream: Upstream, name: string, prompt: Prompt): void {
    const args = prompt.arguments ?? [];
    this.#server.prompt(
      name,
      {
        ...(prompt.title !== undefined && { title: prompt.title }),
        ...(prompt.description !== undefined && { description: prompt.description }),
        ...(args.length > 0 && { args: promptArgumentsSchema(args) }),
        ...(prompt.icons !== undefined && { icons: prompt.icons }),
        ...(prompt._meta !== undefined && { _meta: prompt._meta }),
        complete: completers(
          upstream,
          args.map((arg) => arg.name),
          { type: 'ref/prompt', name: prompt.name },
        ),
      },
      (values, ctx) =>
        this.#relay(
          upstream,
          'prompts/get',
          { name: prompt.name, ...(args.length > 0 && { arguments: values }) },
          name,
          ctx,
        ),
    );
  }

  #addResource(upstream: Upstream, uri: string, resource: Resource): void {
    this.#server.resource(
      uri,
      {
        name: resource.name,
        ...(resource.title !== undefined && { title: resource.title }),
        ...(resource.description !== undefined && { description: resource.description }),
        ...(resource.mimeType !== undefined && { mimeType: resource.mimeType }),
        ...(resource.icons !== undefined && { icons: resource.icons }),
        ...(resource.annotations !== undefined && { annotations: resource.annotations }),
        ...(resource.size !== undefined && { size: resource.size }),
        ...(resource._meta !== undefined && { _meta: resource._meta }),
      },
      (request, ctx) => this.#relay(upstream, 'resources/read', { uri: request.uri }, request.uri, ctx),
    );
  }

  #addTemplate(upstream: Upstream, uriTemplate: string, template: ResourceTemplateType): void {
    const variables = new UriTemplate(uriTemplate).variableNames;
    this.#server.resource(
      uriTemplate,
      {
        name: template.name,
        ...(template.title !== undefined && { title: template.title }),
        ...(template.description !== undefined && { description: template.description }),
        ...(template.mimeType !== undefined && { mimeType: template.mimeType }),
        ...(template.icons !== undefined && { icons: template.icons }),
        ...(template.annotations !== undefined && { annotations: template.annotations }),
        ...(template._meta !== undefined && { _meta: template._meta }),
        complete: completers(upstream, variables, { type: 'ref/resource', uri: uriTemplate }),
      },
      (request, ctx) => this.#relay(upstream, 'resources/read', { uri: request.uri }, request.uri, ctx),
    );
  }
}

/**
 * A tool the upstream may run as a task may be one of the gateway's too, which it becomes when the
 * upstream's call does (`start: 'manual'`). 2026-07-28 listings carry no `execution`: there an
 * upstream that offers the tasks extension may make any call a task.
 */
function taskSupport(tool: Tool, upstream: Upstream): { task?: { support: 'optional'; start: 'manual' } } {
  const support = (tool as { execution?: { taskSupport?: string } }).execution?.taskSupport;
  const extensions = (upstream.capabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  const offered =
    support === 'optional' ||
    support === 'required' ||
    (support === undefined && extensions?.[TASKS_EXTENSION] !== undefined);
  // Optional on the gateway even where the upstream requires it: the upstream refuses a host that cannot poll.
  return offered ? { task: { support: 'optional', start: 'manual' } } : {};
}

/** Completers that ask the upstream (`completion/complete`), when it offers completions. */
function completers(upstream: Upstream, names: readonly string[], ref: Record<string, string>): Completers {
  return Object.fromEntries(
    names.map((name) => [
      name,
      async (value: string, context: { readonly arguments: Readonly<Record<string, string>> }) => {
        if (!upstream.capabilities?.completions) return [];
        const result = (await upstream.request('completion/complete', {
          ref,
          argument: { name, value },
          ...(Object.keys(context.arguments).length > 0 && { context: { arguments: context.arguments } }),
        })) as { completion?: { values?: unknown } };
        const values = result.completion?.values;
        return Array.isArray(values)
          ? values.filter((item): item is string => typeof item === 'string').slice(0, MAX_COMPLETIONS)
          : [];
      },
    ]),
  );
}

function declaresParamHeaders(tool: Tool): boolean {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  return (
    typeof properties === 'object' &&
    properties !== null &&
    Object.values(properties).some(
      (property) => typeof property === 'object' && property !== null && 'x-mcp-header' in property,
    )
  );
}
