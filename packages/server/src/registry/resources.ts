import {
  type Annotations,
  type Icon,
  type Resource,
  type ResourceTemplateType,
  UriTemplate,
} from '@modelcontextprotocol/server';
import type { Completers, ParleyContext, ResourceReturn } from '../types.js';

/** How a resource or template presents itself in `resources/list`: its name, title, description, type, icons and completions. */
export interface ResourceConfig {
  /** A short machine name (defaults to the URI). */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons?: Icon[];
  /** Hints for the client (`audience`, `priority`, `lastModified`), listed as given. */
  readonly annotations?: Annotations;
  /** A static resource's size in bytes, when known. */
  readonly size?: number;
  readonly _meta?: Record<string, unknown>;
  /** For a template: suggestions for its variables' values (`completion/complete`), by variable name. */
  readonly complete?: Completers;
}

/** What a resource handler receives: the URI read, and the template's variables for a template. */
export interface ResourceRequest {
  readonly uri: string;
  readonly params: Readonly<Record<string, string>>;
}

/** A resource's body: gets the URI read (and a template's variables) and the context, returns the contents (or a string); may ask with `ctx.elicit`. */
export type ResourceHandler = (
  request: ResourceRequest,
  ctx: ParleyContext,
) => ResourceReturn | Promise<ResourceReturn>;

export interface RegisteredResource {
  /** The URI, or the URI template it was registered with. */
  readonly uri: string;
  readonly mimeType: string | undefined;
  readonly handler: ResourceHandler;
}

interface TemplateEntry extends RegisteredResource {
  readonly template: UriTemplate;
  readonly listing: ResourceTemplateType;
  readonly complete: Completers | undefined;
}

/** Static resources and URI templates (RFC 6570, e.g. `brightgrid://returns/{id}`). */
export class ResourceRegistry {
  readonly #static = new Map<string, RegisteredResource & { listing: Resource }>();
  readonly #templates: TemplateEntry[] = [];

  add(uri: string, config: ResourceConfig, handler: ResourceHandler): void {
    if (this.#static.has(uri) || this.#templates.some((entry) => entry.uri === uri)) {
      throw new TypeError(`A resource ${JSON.stringify(uri)} is already registered.`);
    }
    const common = {
      name: config.name ?? uri,
      ...(config.title !== undefined && { title: config.title }),
      ...(config.description !== undefined && { description: config.description }),
      ...(config.mimeType !== undefined && { mimeType: config.mimeType }),
      ...(config.icons && { icons: config.icons }),
      ...(config.annotations && { annotations: config.annotations }),
      ...(config._meta && { _meta: config._meta }),
    };
    if (UriTemplate.isTemplate(uri)) {
      this.#templates.push({
        uri,
        mimeType: config.mimeType,
        handler,
        template: new UriTemplate(uri),
        listing: { uriTemplate: uri, ...common },
        complete: config.complete,
      });
    } else {
      const listing = { uri, ...common, ...(config.size !== undefined && { size: config.size }) };
      this.#static.set(uri, { uri, mimeType: config.mimeType, handler, listing });
    }
  }

  /** Removes the resource or template registered as `uri`; false when there is none. */
  remove(uri: string): boolean {
    if (this.#static.delete(uri)) return true;
    const index = this.#templates.findIndex((entry) => entry.uri === uri);
    if (index < 0) return false;
    this.#templates.splice(index, 1);
    return true;
  }

  /** Finds what serves `uri`: a static resource first, then the first template that matches. */
  resolve(uri: string): { resource: RegisteredResource; params: Record<string, string> } | undefined {
    const exact = this.#static.get(uri);
    if (exact) return { resource: exact, params: {} };
    for (const entry of this.#templates) {
      const match = entry.template.match(uri);
      if (match) {
        const params = Object.fromEntries(
          Object.entries(match).map(([key, value]) => [
            key,
            Array.isArray(value) ? value.join(',') : String(value),
          ]),
        );
        return { resource: entry, params };
      }
    }
    return undefined;
  }

  get size(): number {
    return this.#static.size + this.#templates.length;
  }

  /** Whether `uri` names a resource: a static one, or any value of a template. */
  has(uri: string): boolean {
    return this.resolve(uri) !== undefined;
  }

  /**
   * What was registered to serve `uri`: the URI of a static resource, or the URI template that
   * matches it (`uri` may also be a registered template itself, as `completion/complete` names it).
   */
  registeredAs(uri: string): string | undefined {
    if (this.#templates.some((entry) => entry.uri === uri)) return uri;
    return this.resolve(uri)?.resource.uri;
  }

  /** The completers of the template registered as `uriTemplate`. */
  completersOf(uriTemplate: string): Completers | undefined {
    return this.#templates.find((entry) => entry.uri === uriTemplate)?.complete;
  }

  list(): Resource[] {
    return [...this.#static.values()].map((entry) => entry.listing);
  }

  listTemplates(): ResourceTemplateType[] {
    return this.#templates.map((entry) => entry.listing);
  }
}
