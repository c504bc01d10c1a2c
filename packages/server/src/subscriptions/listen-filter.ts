import { isRecord } from '@parley/core';
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

/** How large a filter may be: it is held for as long as its stream is open. */
export interface FilterLimits {
  /** URIs in `resourceSubscriptions`. */
  readonly maxResourceSubscriptions: number;
  /** Characters of one URI. */
  readonly maxUriChars: number;
}

/**
 * The part of a requested filter this server honours (what the acknowledgement reports): only
 * types it supports, only when asked for; or what is wrong with a malformed or oversized one.
 */
export function agreedFilter(
  requested: unknown,
  supported: Notifiable,
  limits: FilterLimits,
): SubscriptionFilter | { readonly problem: string } {
  if (!isRecord(requested)) return { problem: 'notifications must be a SubscriptionFilter object.' };
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
    if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string'))
      return { problem: 'notifications.resourceSubscriptions must be a list of URIs.' };
    if (uris.length > limits.maxResourceSubscriptions)
      return {
        problem: `notifications.resourceSubscriptions names ${uris.length} URIs; one stream listens to at most ${limits.maxResourceSubscriptions}.`,
      };
    if (uris.some((uri) => uri.length > limits.maxUriChars))
      return {
        problem: `a URI in notifications.resourceSubscriptions is longer than ${limits.maxUriChars} characters.`,
      };
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
