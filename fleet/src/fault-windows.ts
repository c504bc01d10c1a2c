/** One disruption of one replica, from its stop until the balancer has settled around its return. */
export interface FaultWindow {
  readonly label: string;
  readonly replica: string;
  readonly openedAt: number;
  /** When the replica served a response again after coming back. */
  servedAgainAt?: number;
  closedAt?: number;
}

/**
 * The times a replica was down or coming back: rounds that land on the same replica twice are
 * expected only inside one (the balancer's order is reshuffled while a replica fails and recovers).
 * A window closes `settleRequests` requests after the replica served again.
 */
export class FaultWindows {
  readonly #windows: FaultWindow[] = [];
  readonly #settleRequests: number;
  readonly #since = new Map<FaultWindow, number>();

  constructor(settleRequests = 30) {
    this.#settleRequests = settleRequests;
  }

  get all(): readonly FaultWindow[] {
    return this.#windows;
  }

  open(label: string, replica: string): FaultWindow {
    const window: FaultWindow = { label, replica, openedAt: Date.now() };
    this.#windows.push(window);
    return window;
  }

  /** Marks that the replica of `window` is running again: from now on its responses count as "back". */
  restarted(window: FaultWindow): void {
    this.#since.set(window, 0);
  }

  /** Records a response served by `replica` (any request). */
  served(replica: string | undefined): void {
    for (const [window, count] of this.#since) {
      if (window.servedAgainAt === undefined) {
        if (replica === window.replica) {
          window.servedAgainAt = Date.now();
          this.#since.set(window, 1);
        }
        continue;
      }
      if (count >= this.#settleRequests) {
        window.closedAt = Date.now();
        this.#since.delete(window);
      } else {
        this.#since.set(window, count + 1);
      }
    }
  }

  /** The label of an open window, if one is open now. */
  current(): string | undefined {
    return this.#windows.find((window) => window.closedAt === undefined)?.label;
  }
}
