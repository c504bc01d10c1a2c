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
  /** Resource URIs someone is subscribed to, with how many subscriptions name each. */
  readonly #watched = new Map<string, number>();
  readonly #watchers = new Set<(uri: string, watched: boolean) => void>();

  /**
   * Counts one subscription to `uri` (a 2025 session's `resources/subscribe`, or a listen stream's
   * filter); the watchers hear when a URI gets its first subscriber and loses its last. Returns the
   * function that ends this subscription (calling it twice does nothing).
   */
  watch(uri: string): () => void {
    const count = this.#watched.get(uri) ?? 0;
    this.#watched.set(uri, count + 1);
    if (count === 0) this.#tell(uri, true);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.#watched.get(uri) ?? 1) - 1;
      if (left > 0) this.#watched.set(uri, left);
      else {
        this.#watched.delete(uri);
        this.#tell(uri, false);
      }
    };
  }

  /** Adds a watcher of subscriptions (see {@link watch}); returns the function that removes it. */
  onWatch(watcher: (uri: string, watched: boolean) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** The URIs someone is subscribed to now. */
  get watched(): string[] {
    return [...this.#watched.keys()];
  }

  #tell(uri: string, watched: boolean): void {
    for (const watcher of [...this.#watchers]) {
      try {
        watcher(uri, watched);
      } catch {
        // A broken watcher must not keep the subscription from the others.
      }
    }
  }

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
