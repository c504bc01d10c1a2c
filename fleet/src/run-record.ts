import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One event of a run, at seconds since it started. */
export interface TimelineEvent {
  readonly at: number;
  readonly text: string;
}

/**
 * What a fleet run keeps while it runs: a fresh working folder (the replicas' logs in `logs/`), and
 * a timeline of what happened, each event printed as it happens.
 */
export class RunRecord {
  readonly work: string;
  readonly logDir: string;
  readonly timeline: TimelineEvent[] = [];
  readonly #started = Date.now();
  readonly #log: (line: string) => void;

  /** `prefix`: the working folder's name prefix; `log`: where progress lines go. */
  constructor(prefix: string, log: (line: string) => void) {
    this.work = mkdtempSync(join(tmpdir(), prefix));
    this.logDir = join(this.work, 'logs');
    mkdirSync(this.logDir);
    this.#log = log;
  }

  /** Milliseconds since the run started. */
  get elapsedMs(): number {
    return Date.now() - this.#started;
  }

  /** Adds an event to the timeline and prints it. */
  note = (text: string): void => {
    const at = Math.round(this.elapsedMs / 100) / 10;
    this.timeline.push({ at, text });
    this.#log(`[${at.toFixed(1)} s] ${text}`);
  };

  /** Removes the working folder, unless the logs are kept (a failed run): then it says where they are. */
  finish(keepLogs: boolean): void {
    if (keepLogs) this.#log(`Logs kept in ${this.logDir}`);
    else rmSync(this.work, { recursive: true, force: true });
  }
}
