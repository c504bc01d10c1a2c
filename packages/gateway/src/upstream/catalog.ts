import type {
  Client,
  Prompt,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';

/** What one upstream offers, as it listed it (every page walked). */
export interface Catalog {
  readonly tools: readonly Tool[];
  readonly prompts: readonly Prompt[];
  readonly resources: readonly Resource[];
  readonly templates: readonly ResourceTemplateType[];
}

export const EMPTY_CATALOG: Catalog = Object.freeze({ tools: [], prompts: [], resources: [], templates: [] });

/** Pages one list may take; a server whose cursor never ends is stopped here. */
const MAX_PAGES = 64;
/** Entries one list may hold; past it the rest is left out (and the gateway says so in its log). */
export const MAX_ENTRIES = 5_000;

/** Lists everything an upstream offers, for what its capabilities say it has. */
export async function fetchCatalog(
  sdk: Client,
  capabilities: ServerCapabilities | undefined,
  timeoutMs: number,
): Promise<Catalog> {
  const list = <T>(method: string, field: string) => listAll<T>(sdk, method, field, timeoutMs);
  const [tools, prompts, resources, templates] = await Promise.all([
    capabilities?.tools ? list<Tool>('tools/list', 'tools') : [],
    capabilities?.prompts ? list<Prompt>('prompts/list', 'prompts') : [],
    capabilities?.resources ? list<Resource>('resources/list', 'resources') : [],
    capabilities?.resources
      ? list<ResourceTemplateType>('resources/templates/list', 'resourceTemplates').catch(() => [])
      : [],
  ]);
  return { tools, prompts, resources, templates };
}

async function listAll<T>(sdk: Client, method: string, field: string, timeoutMs: number): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = (await sdk.request({ method, params: cursor === undefined ? {} : { cursor } } as never, {
      timeout: timeoutMs,
    })) as Record<string, unknown>;
    const entries = result[field];
    if (Array.isArray(entries)) items.push(...(entries as T[]));
    cursor =
      typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (cursor === undefined || items.length >= MAX_ENTRIES) break;
  }
  return items.slice(0, MAX_ENTRIES);
}
