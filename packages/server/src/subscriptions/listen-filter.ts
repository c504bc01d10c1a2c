import type { Change } from './change-hub.js';

/** What a `subscriptions/listen` request opts in to (SEP-2575 `SubscriptionFilter`). */
export interface SubscriptionFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
}

/** What this server can notify about. */
export interface Notifiable {
  readonly tools: boolean;
  readonly prompts: boolean;
  readonly resources: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The part of a requested filter this server honours (what the acknowledgement reports): only
 * types it supports, only when asked for. `undefined` when the request's filter is malformed.
 */
export function agreedFilter(requested: unknown, supported: Notifiable): SubscriptionFilter | undefined {
  if (!isRecord(requested)) return undefined;
  const agreed: {
    toolsListChanged?: true;
    promptsListChanged?: true;
    resourcesListChanged?: true;
    resourceSubscriptions?: string[];
  } = {};
  if (requested.toolsListChanged === true && supported.tools) agreed.toolsListChanged = true;
  if (requested.promptsListChanged === true && supported.prompts) agreed.promptsListChanged = true;
  if (requested.resourcesListChanged === true && supported.resources) agreed.resourcesListChanged = true;
  const uris = requested.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string')) return undefined;
    if (supported.resources && uris.length > 0) agreed.resourceSubscriptions = [...new Set(uris as string[])];
  }
  return agreed;
}

/** Whether a change passes a filter (the server MUST NOT send what the client did not ask for). */
export function wants(filter: SubscriptionFilter, change: Change): boolean {
  switch (change.kind) {
    case 'tools':
      return filter.toolsListChanged === true;
    case 'prompts':
      return filter.promptsListChanged === true;
    case 'resources':
      return filter.resourcesListChanged === true;
    case 'resource':
      return filter.resourceSubscriptions?.includes(change.uri) ?? false;
  }
}
