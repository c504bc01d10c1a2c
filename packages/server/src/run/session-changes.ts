import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { App } from '../app.js';

/**
 * Keeps one 2025-era session told about changes: list changes as `notifications/*_list_changed`,
 * and `notifications/resources/updated` for the resources this session subscribed to with
 * `resources/subscribe` (and not unsubscribed since). The session stops listening when it closes.
 */
export function followChanges(
  app: App,
  server: Server,
  handle: (method: string, answer: (params: never, sdk: ServerContext) => unknown) => void,
): void {
  // Only a server with resources takes subscriptions: the others keep no set per session.
  // Each URI this session subscribed to, and the function that ends that subscription in the hub.
  const subscribed = app.declares('resources') ? new Map<string, () => void>() : undefined;
  if (subscribed) {
    handle('resources/subscribe', (params: { uri: string }) => {
      if (!subscribed.has(params.uri)) subscribed.set(params.uri, app.changes.watch(params.uri));
      return {};
    });
    handle('resources/unsubscribe', (params: { uri: string }) => {
      subscribed.get(params.uri)?.();
      subscribed.delete(params.uri);
      return {};
    });
  }
  const stop = app.changes.listen((change) => {
    if (!server.transport) return;
    let sent: Promise<void> | undefined;
    if (change.kind === 'tools') sent = server.sendToolListChanged();
    else if (change.kind === 'prompts') sent = server.sendPromptListChanged();
    else if (change.kind === 'resources') sent = server.sendResourceListChanged();
    else if ('uri' in change && subscribed?.has(change.uri))
      sent = server.sendResourceUpdated({ uri: change.uri });
    void sent?.catch(() => {});
  });
  const closed = server.onclose;
  server.onclose = () => {
    stop();
    if (subscribed) for (const end of subscribed.values()) end();
    closed?.();
  };
}
