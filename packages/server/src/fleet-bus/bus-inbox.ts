/**
 * Messages read from a fleet's Redis bus, opened one at a time in the order they came (a call's
 * notes before its step). Past `max` waiting, a message is dropped and said so; whatever opening
 * one throws never stops the next (what a peer sent never stops a replica).
 */
export class BusInbox {
  #tail: Promise<void> = Promise.resolve();
  #waiting = 0;

  constructor(
    private readonly receive: (text: string) => Promise<void>,
    private readonly dropped: (reason: string) => void,
    private readonly max = 10_000,
  ) {}

  /** Queues one message as read from the bus. */
  take(text: string): void {
    if (this.#waiting >= this.max) {
      this.dropped(`a message past the ${this.max} waiting to be read`);
      return;
    }
    this.#waiting++;
    this.#tail = this.#tail.then(async () => {
      try {
        await this.receive(text);
      } catch {
        // Every message that fails to open is logged where it is opened.
      } finally {
        this.#waiting--;
      }
    });
  }
}
