/**
 * A timeout that only counts time the server is working: it is paused while a person is looking at
 * a question (on the handshake era the server's request stays open while they answer).
 */
export class WireTimer {
  private remaining: number;
  private startedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    ms: number,
    private readonly onExpire: () => void,
    paused: boolean,
  ) {
    this.remaining = ms;
    if (!paused) this.resume();
  }

  pause(): void {
    if (this.timer === undefined || this.stopped) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remaining -= Date.now() - this.startedAt;
  }

  resume(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.startedAt = Date.now();
    this.timer = setTimeout(
      () => {
        this.stopped = true;
        this.onExpire();
      },
      Math.max(0, this.remaining),
    );
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
