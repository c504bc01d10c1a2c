/** Something a client may want to hear about without asking: a list changed, or one resource did. */
export type Change =
  | { readonly kind: 'tools' | 'prompts' | 'resources' }
  | { readonly kind: 'resource'; readonly uri: string };

/** The notification a change becomes on the wire. */
export function notificationOf(change: Change): { method: string; params: Record<string, unknown> } {
  switch (change.kind) {
    case 'tools':
      return { method: 'notifications/tools/list_changed', params: {} };
    case 'prompts':
      return { method: 'notifications/prompts/list_changed', params: {} };
    case 'resources':
      return { method: 'notifications/resources/list_changed', params: {} };
    case 'resource':
      return { method: 'notifications/resources/updated', params: { uri: change.uri } };
  }
}

/**
 * Where a server's changes meet the connections that listen for them: 2026-07-28
 * `subscriptions/listen` streams and 2025 sessions. Listeners are called synchronously, in order;
 * one that throws does not stop the others.
 */
export class ChangeHub {
  readonly #listeners = new Set<(change: Change) => void>();

  /** Adds a listener; returns the function that removes it. */
  listen(listener: (change: Change) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(change: Change): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch {
        // A broken connection must not keep the change from the others.
      }
    }
  }

  get listeners(): number {
    return this.#listeners.size;
  }
}
