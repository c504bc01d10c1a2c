/**
 * 2025-11-25 URL flows the server announced as finished (`notifications/elicitation/complete`),
 * and the waits to end when that happens. Unknown or repeated ids are ignored, as the spec asks.
 */
export class UrlFlows {
  private readonly finished = new Set<string>();
  private readonly waits = new Map<string, Set<() => void>>();

  complete(elicitationId: string): boolean {
    if (this.finished.has(elicitationId)) return false;
    this.finished.add(elicitationId);
    for (const end of this.waits.get(elicitationId) ?? []) end();
    this.waits.delete(elicitationId);
    return true;
  }

  isFinished(elicitationId: string): boolean {
    return this.finished.has(elicitationId);
  }

  /** Calls `end` once the flow finishes (at once if it already has). Returns a function to stop watching. */
  watch(elicitationId: string, end: () => void): () => void {
    if (this.finished.has(elicitationId)) {
      end();
      return () => {};
    }
    const set = this.waits.get(elicitationId) ?? new Set();
    set.add(end);
    this.waits.set(elicitationId, set);
    return () => set.delete(end);
  }
}
