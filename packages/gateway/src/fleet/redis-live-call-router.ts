import { randomUUID } from 'node:crypto';
import { type Logger, stderrLogger } from '@parley/server';
import { requireRedisClient } from '@parley/server/redis';
import type { Redis } from 'ioredis';
import { type LiveCallRouter, ParkedCallError, type Resume } from '../relay/live-calls.js';
import type { Step, Via } from '../relay/step.js';
import { MAX_RESULT_BYTES } from '../upstream/step-of.js';
import { DropLog } from './drop-log.js';
import { type LiveMessage, MAX_HOLD_MS, REPLICA_ID, readLiveMessage, resumeOnWire } from './live-wire.js';
import { fromWireError, toWireError } from './resume-errors.js';

/** How a `RedisLiveCallRouter` names this replica, where it talks, and how long it waits. */
export interface RedisLiveCallRouterOptions {
  /**
   * A readable name for this replica (1 to 32 letters, digits, `_` and `-`; e.g. `gw1`). Its id in
   * the fleet, the first part of every handle it issues, is the name plus a random part, so a
   * replica restarted under the same name never passes for the process before it.
   */
  readonly name?: string;
  /** Channel prefix, so several fleets can share one Redis. Default `parley:gateway:`. */
  readonly prefix?: string;
  /** How long a resume may take beyond the hold it asks for before the host is told. Default 10000. */
  readonly answerTimeoutMs?: number;
  /** How often the replicas this one waits on are checked for being gone. Default 1000. */
  readonly checkMs?: number;
  /** The largest message this replica sends or reads on the bus, in characters. Default 16 MiB + 64 KiB. */
  readonly maxMessageChars?: number;
  /** Where dropped messages are reported (at most one line per 5 s). Default: stderr. */
  readonly log?: Logger;
}

/** A resume sent to another replica, waiting for its reply. */
interface Outgoing {
  readonly replica: string;
  readonly handle: string;
  readonly resolve: (step: Step) => void;
  readonly reject: (error: Error) => void;
  timer?: ReturnType<typeof setTimeout>;
}

const NAME = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Resumes of held calls passed to the gateway replica that holds them, over Redis pub/sub (ioredis,
 * an optional peer dependency: `npm install ioredis`). On a fleet of gateways behind a balancer with
 * no affinity, a 2026-07-28 host's retry for a 2025 upstream's held call may reach any replica; the
 * handle in its sealed state names the replica that holds the call, and this router carries the
 * resume there and the step back.
 *
 * A resume is only ever served by the replica its handle names: it is published on that replica's
 * own channel, and a replica serves no handle but its own. A replica that is gone (nobody listens on
 * its channel: it stopped, was killed, or lost Redis) fails the resume at once, and one that does not
 * answer within the resume's hold plus `answerTimeoutMs` fails it then, each with an error that says
 * which replica and what happened; nothing waits forever. Messages are capped in size; a message
 * that is malformed, oversized, forged or late is dropped and logged, never served.
 *
 * Resumes travel through Redis with the host's answers in them: keep that Redis private to the fleet.
 *
 * @example
 * import { createGateway } from '@parley/gateway';
 * import { RedisLiveCallRouter } from '@parley/gateway/redis';
 * import { Redis } from 'ioredis';
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * const gateway = createGateway(
 *   { upstreams: { files: { url: 'http://127.0.0.1:8000/mcp' } } },
 *   { router: new RedisLiveCallRouter(redis, { name: 'gw1' }) },
 * );
 */
export class RedisLiveCallRouter implements LiveCallRouter {
  /** This process's id in the fleet (its name and a random part): the first part of its handles. */
  readonly replica: string;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #answerTimeoutMs: number;
  readonly #checkMs: number;
  readonly #maxChars: number;
  readonly #drops: DropLog;
  readonly #outgoing = new Map<string, Outgoing>();
  #serve: ((request: Resume) => Promise<Step>) | undefined;
  #subscriber: Redis | undefined;
  #subscribed: Promise<void> | undefined;
  #checker: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(redis: Redis, options: RedisLiveCallRouterOptions = {}) {
    this.#redis = requireRedisClient('RedisLiveCallRouter', redis);
    const name = options.name ?? 'gateway';
    if (!NAME.test(name))
      throw new TypeError(
        `RedisLiveCallRouter name ${JSON.stringify(name)} is not valid: use 1 to 32 letters, digits, "_" and "-" (e.g. "gw1").`,
      );
    this.replica = `${name}-${randomUUID()}`;
    this.#prefix = options.prefix ?? 'parley:gateway:';
    this.#answerTimeoutMs = options.answerTimeoutMs ?? 10_000;
    this.#checkMs = options.checkMs ?? 1_000;
    this.#maxChars = options.maxMessageChars ?? MAX_RESULT_BYTES + 64 * 1024;
    this.#drops = new DropLog(options.log ?? stderrLogger, 'gateway fleet bus');
  }

  serve(resume: (request: Resume) => Promise<Step>): void {
    if (this.#serve) throw new Error('A RedisLiveCallRouter serves one gateway; create one per gateway.');
    this.#serve = resume;
    void this.ready().catch(() => {});
  }

  /** Resolves once this replica listens on its channel (so handles it issues can be resumed). */
  ready(): Promise<void> {
    this.#subscribed ??= this.#subscribe();
    return this.#subscribed;
  }

  async forward(replica: string, asked: Resume): Promise<Step> {
    const name = readableName(replica);
    // The holder answers `wait` after the hold; a longer hold (a 2025 host's) is asked again then.
    const resume = { ...asked, holdMs: Math.min(asked.holdMs, MAX_HOLD_MS) };
    if (this.#closed) throw new ParkedCallError('This gateway replica is stopping; call again.');
    await this.ready();
    const id = randomUUID();
    const waitMs = resume.holdMs + this.#answerTimeoutMs;
    const until = Date.now() + waitMs;
    const text = JSON.stringify({
      t: 'resume',
      id,
      from: this.replica,
      until,
      resume: resumeOnWire(resume),
    });
    if (text.length > this.#maxChars)
      throw new ParkedCallError(
        `These answers are too large to pass to the gateway replica that holds the call (${text.length} characters; at most ${this.#maxChars}).`,
      );
    return new Promise<Step>((resolve, reject) => {
      const outgoing: Outgoing = { replica, handle: resume.handle, resolve, reject };
      this.#outgoing.set(id, outgoing);
      outgoing.timer = setTimeout(
        () =>
          this.#fail(
            id,
            `The gateway replica ${name} that holds this call did not answer within ${waitMs / 1000} s; call again to start over.`,
          ),
        Math.max(0, until - Date.now()),
      );
      this.#watch();
      this.#redis.publish(this.#channel(replica), text).then(
        (receivers) => {
          // Nobody listens on its channel: the replica is gone, and the calls it held with it.
          if (receivers === 0) this.#fail(id, goneText(name));
        },
        (error: unknown) =>
          this.#fail(
            id,
            `The gateway could not reach its other replicas (Redis: ${error instanceof Error ? error.message : String(error)}); call again shortly.`,
          ),
      );
    });
  }

  /** Resumes sent from here and not answered yet. */
  get waiting(): number {
    return this.#outgoing.size;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#checker);
    for (const id of [...this.#outgoing.keys()])
      this.#fail(id, 'This gateway replica is stopping; call again.');
    const subscriber = this.#subscriber;
    await subscriber?.quit().catch(() => subscriber.disconnect());
  }

  async #subscribe(): Promise<void> {
    const subscriber = this.#redis.duplicate();
    this.#subscriber = subscriber;
    let readyBefore = false;
    subscriber.on('ready', () => {
      // Redis came back: replies sent meanwhile are lost, so what waits on them ends now.
      if (readyBefore)
        for (const [id, outgoing] of [...this.#outgoing])
          this.#fail(
            id,
            `The connection to the gateway replica ${readableName(outgoing.replica)} that holds this call was interrupted; call again.`,
          );
      readyBefore = true;
    });
    subscriber.on('error', () => {}); // ioredis reconnects by itself (and subscribes again)
    subscriber.on('message', (_channel: string, text: string) => this.#receive(text));
    await subscriber.subscribe(this.#channel(this.replica));
  }

  #receive(text: string): void {
    const read = readLiveMessage(text, this.#maxChars);
    if ('dropped' in read) {
      this.#drops.drop('warn', read.dropped);
      return;
    }
    const message = read.message;
    if (message.t === 'resume') {
      void this.#answer(message);
      return;
    }
    const outgoing = this.#outgoing.get(message.id);
    if (outgoing === undefined) {
      this.#drops.drop('info', 'a reply nobody here waits for (it came too late, or was forged)');
      return;
    }
    const wrong =
      message.from !== outgoing.replica
        ? 'a reply from a replica the resume was not sent to'
        : message.t === 'step' && 'via' in message.step && !namesCall(message.step.via, outgoing.handle)
          ? 'a reply that names another call than the one resumed'
          : undefined;
    if (wrong !== undefined) {
      this.#drops.drop('warn', wrong);
      return;
    }
    this.#settle(message.id);
    if (message.t === 'step') outgoing.resolve(message.step);
    else outgoing.reject(fromWireError(message.error, readableName(outgoing.replica)));
  }

  /** Serves a resume another replica sent here, and sends it the step (or the error). */
  async #answer(message: Extract<LiveMessage, { t: 'resume' }>): Promise<void> {
    const serve = this.#serve;
    if (serve === undefined || this.#closed) return;
    if (Date.now() > message.until) {
      this.#drops.drop('info', 'a resume that came after its sender stopped waiting');
      return;
    }
    if (message.resume.handle.slice(0, message.resume.handle.indexOf('.')) !== this.replica) {
      this.#drops.drop('warn', 'a resume for a call this replica does not hold');
      return;
    }
    const reply = await serve(message.resume).then(
      (step) => ({ t: 'step', id: message.id, from: this.replica, step }),
      (error: unknown) => ({ t: 'error', id: message.id, from: this.replica, error: toWireError(error) }),
    );
    let text = JSON.stringify(reply);
    if (text.length > this.#maxChars)
      text = JSON.stringify({
        t: 'error',
        id: message.id,
        from: this.replica,
        error: {
          kind: 'tool',
          message: `The upstream's answer is too large to pass between the gateway's replicas (${text.length} characters; at most ${this.#maxChars}).`,
        },
      });
    await this.#redis.publish(this.#channel(message.from), text).catch(() => {});
  }

  /** Checks, while resumes wait, that the replicas they wait on still listen. */
  #watch(): void {
    if (this.#checker !== undefined) return;
    this.#checker = setInterval(() => void this.#check(), this.#checkMs);
    this.#checker.unref?.();
  }

  async #check(): Promise<void> {
    if (this.#outgoing.size === 0) {
      clearInterval(this.#checker);
      this.#checker = undefined;
      return;
    }
    const replicas = [...new Set([...this.#outgoing.values()].map((outgoing) => outgoing.replica))];
    let counts: unknown[];
    try {
      counts = (await this.#redis.pubsub(
        'NUMSUB',
        ...replicas.map((replica) => this.#channel(replica)),
      )) as unknown[];
    } catch {
      return; // Redis is away: the deadline, or the reconnect, ends what waits
    }
    const gone = new Set(replicas.filter((_, index) => Number(counts[index * 2 + 1]) === 0));
    for (const [id, outgoing] of [...this.#outgoing])
      if (gone.has(outgoing.replica)) this.#fail(id, goneText(readableName(outgoing.replica)));
  }

  #settle(id: string): void {
    const outgoing = this.#outgoing.get(id);
    if (outgoing === undefined) return;
    this.#outgoing.delete(id);
    clearTimeout(outgoing.timer);
  }

  #fail(id: string, message: string): void {
    const outgoing = this.#outgoing.get(id);
    if (outgoing === undefined) return;
    this.#settle(id);
    outgoing.reject(new ParkedCallError(message));
  }

  #channel(replica: string): string {
    return `${this.#prefix}live:${replica}`;
  }
}

/** Whether a step's `via` names the held call `handle` (a held call's steps always do). */
function namesCall(via: Via, handle: string): boolean {
  return via.kind === 'live' && via.handle === handle;
}

/** What people are told when the replica holding their call is gone. */
function goneText(name: string): string {
  return `The gateway replica ${name} that held this call is gone (it stopped, or lost its connection to the fleet), and the upstream call with it; call again to start over.`;
}

/** A replica's readable name: its id without the random part. */
function readableName(replica: string): string {
  const name = replica.replace(/-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, '');
  return REPLICA_ID.test(name) ? name : 'another';
}
