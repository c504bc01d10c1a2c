import type { LabState } from './lab-state.js';

/** How long the lab waits for the person to finish signing in. */
const SIGN_IN_TIMEOUT_MS = 10 * 60_000;

interface Pending {
  readonly serverId: string;
  readonly resolve: (callback: URL) => void;
  readonly reject: (error: Error) => void;
  /** Runs from when a person could see the sign-in link (a lab page was open). */
  timer: NodeJS.Timeout | undefined;
}

/**
 * Sign-ins the lab waits for: a server asked the person to sign in, the page shows its
 * authorization address (the server's `signIn`), the person signs in in a new window, and the
 * authorization server sends that window back to the lab's `/oauth/callback`, which completes the
 * sign-in waiting for the same `state`. The client checks state, `iss` and PKCE itself.
 */
export class SignIns {
  readonly #state: LabState;
  readonly #pending = new Map<string, Pending>();
  /** Whether a lab page has been open: until then nobody could see a sign-in link, so none times out. */
  #seen = false;

  constructor(state: LabState) {
    this.#state = state;
  }

  /**
   * A lab page opened: sign-ins waiting since before start their 10 minutes now. A lab started at
   * launch and opened much later must not find its sign-in given up.
   */
  pageOpened(): void {
    if (this.#seen) return;
    this.#seen = true;
    for (const [key, pending] of this.#pending) pending.timer ??= this.#timer(key);
  }

  /** Shows the address on the server's panel and resolves with the URL the browser came back to. */
  wait(serverId: string, authorizationUrl: URL): Promise<URL> {
    const key = authorizationUrl.searchParams.get('state');
    if (key === null) return Promise.reject(new Error('The authorization request has no state'));
    return new Promise<URL>((resolve, reject) => {
      const timer = this.#seen ? this.#timer(key) : undefined;
      this.#pending.set(key, { serverId, resolve, reject, timer });
      this.#state.updateServer(serverId, {
        signIn: { url: authorizationUrl.href, origin: authorizationUrl.origin },
      });
    });
  }

  #timer(key: string): NodeJS.Timeout {
    const timer = setTimeout(
      () => this.#finish(key, new Error('Nobody finished signing in within 10 minutes')),
      SIGN_IN_TIMEOUT_MS,
    );
    timer.unref();
    return timer;
  }

  /** The browser came back: `true` when a sign-in was waiting for this state. */
  complete(callback: URL): boolean {
    const key = callback.searchParams.get('state');
    if (key === null || !this.#pending.has(key)) return false;
    this.#finish(key, callback);
    return true;
  }

  /** Stops waiting for a server's sign-ins (it was disconnected, or the lab stops). */
  cancel(serverId?: string): void {
    for (const [key, pending] of this.#pending) {
      if (serverId === undefined || pending.serverId === serverId)
        this.#finish(key, new Error('The sign-in was stopped'));
    }
  }

  #finish(key: string, outcome: URL | Error): void {
    const pending = this.#pending.get(key);
    if (pending === undefined) return;
    this.#pending.delete(key);
    clearTimeout(pending.timer);
    this.#state.updateServer(pending.serverId, { signIn: undefined });
    if (outcome instanceof URL) pending.resolve(outcome);
    else pending.reject(outcome);
  }
}
