/**
 * Requests in flight by the bearer token they carry. A replica revokes the tokens it printed when it
 * stops gracefully, so before stopping one the run moves to other tokens and waits here until no
 * request still carrying the old ones is on its way (on a loaded machine that can take seconds).
 */
export class TokenUse {
  readonly #inFlight = new Map<string, number>();

  /** Marks a request carrying `token` as sent; call the result once the replica has read it. */
  hold(token: string): () => void {
    this.#inFlight.set(token, (this.#inFlight.get(token) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#inFlight.get(token) ?? 1) - 1;
      if (left === 0) this.#inFlight.delete(token);
      else this.#inFlight.set(token, left);
    };
  }

  /** Waits until no request carries any of `tokens` (at most `maxMs`); whether they all landed. */
  async drained(tokens: readonly string[], maxMs: number): Promise<boolean> {
    const deadline = Date.now() + maxMs;
    while (tokens.some((token) => this.#inFlight.has(token))) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return true;
  }
}
