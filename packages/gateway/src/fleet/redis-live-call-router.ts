import { randomUUID } from 'node:crypto';
import { KeyRing, type SealSecret } from '@parley/core';
import { type Logger, stderrLogger } from '@parley/server';
import {
  type BusHeader,
  BusInbox,
  type BusSeal,
  DropLog,
  requireRedisClient,
  SeenMessages,
} from '@parley/server/redis';
import type { Redis } from 'ioredis';
import { type LiveCallRouter, ParkedCallError, type Resume } from '../held/live-calls.js';
import type { LiveListeners, Owner } from '../leg/host-facts.js';
import { MAX_RESULT_BYTES } from '../leg/limits.js';
import type { Step, Via } from '../leg/step.js';
import { liveBusSeal } from './live-bus.js';
import {
  CANCEL_TTL_MS,
  type LiveMessage,
  MAX_HOLD_MS,
  MAX_NOTE_CHARS,
  MAX_NOTES_PER_RESUME,
  type Note,
  REPLICA_ID,
  resumeOnWire,
} from './live-wire.js';
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
  /**
   * The key ring the fleet's replicas share (`fleet.stateKeys`, the one they seal `requestState`
   * with): `id:base64secret` text, sealing key first, or its keys. Every message on the bus is
   * sealed with keys derived from it. Default: the `PARLEY_STATE_KEYS` environment variable.
   */
  readonly keys?: string | readonly SealSecret[];
  /** How long a resume may take beyond the hold it asks for before the host is told. Default 10000, at most 300000. */
  readonly answerTimeoutMs?: number;
  /** How often the replicas this one waits on are checked for being gone. Default 1000. */
  readonly checkMs?: number;
  /** The largest message this replica sends or reads on the bus, in characters of JSON (before it is sealed). Default 16 MiB + 64 KiB. */
  readonly maxMessageChars?: number;
  /** Where dropped messages are reported (at most one line per 5 s). Default: stderr. */
  readonly log?: Logger;
}

/** A resume sent to another replica, waiting for its reply. */
interface Outgoing {
  readonly replica: string;
  readonly handle: string;
  /** Who hears what the held call says while it waits (the host's run on this replica). */
  readonly listeners: LiveListeners;
  /** The count of the last note taken (notes count up from 1). */
  seq: number;
  readonly resolve: (step: Step) => void;
  readonly reject: (error: Error) => void;
  timer?: ReturnType<typeof setTimeout>;
}

const NAME = /^[A-Za-z0-9_-]{1,32}$/;
const MAX_ANSWER_TIMEOUT_MS = 300_000;
/** The furthest ahead a resume's or cancel's deadline may be (what a replica sets, and clocks apart). */
const MAX_AHEAD_MS = MAX_HOLD_MS + MAX_ANSWER_TIMEOUT_MS + 60_000;
/** Resumes and cancels remembered at once (each until its deadline), so a copy is not acted on. */
const MAX_SEEN = 200_000;

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
 * which replica and what happened; nothing waits forever. While a resume waits, what the held call's
 * upstream says (progress, log messages, URL completions) comes back to the replica the host is on
 * (at most 1000 notes of 64 KiB each per resume), and a host that cancels there (its request
 * aborted, `notifications/cancelled`, its connection closed) has the holder drop the call and
 * cancel it upstream.
 *
 * Every message is sealed (AES-256-GCM) with keys derived by HKDF from the key ring the fleet
 * shares (`keys`; rotated as sealed state is: the first key seals, any opens), and bound to the
 * channel it is published on, its kind, its id and its sender. So whoever can publish on the
 * fleet's Redis without the keys can neither forge a resume or a cancel nor read the answers,
 * steps, progress or logs that cross; a copy of a message replayed later is not acted on twice.
 * Messages are capped in size and count; one that does not open, is malformed, oversized, late or
 * a copy is dropped and logged, never served. What the seal does not hide: which replicas talk,
 * when, how often and how much (message kinds, ids and sizes are visible on the channel), and
 * Redis can still drop or delay messages (a resume then fails, with a clear error). Keep Redis
 * private to the fleet all the same: question pages and session routing keep their own data there.
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
  readonly #inbox = new BusInbox(
    (text) => this.#receive(text),
    (reason) => this.#drops.drop('warn', reason),
  );
  readonly #outgoing = new Map<string, Outgoing>();
  readonly #seen = new SeenMessages(MAX_SEEN);
  readonly #sealing: Promise<BusSeal<LiveMessage>>;
  #seal: BusSeal<LiveMessage> | undefined;
  #serve: ((request: Resume, listeners: LiveListeners) => Promise<Step>) | undefined;
  #drop: ((handle: string, owner: Owner) => void) | undefined;
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
    if (!(this.#answerTimeoutMs >= 0 && this.#answerTimeoutMs <= MAX_ANSWER_TIMEOUT_MS))
      throw new TypeError(
        `RedisLiveCallRouter answerTimeoutMs must be 0 to ${MAX_ANSWER_TIMEOUT_MS} (got ${this.#answerTimeoutMs}).`,
      );
    const keys = options.keys ?? process.env.PARLEY_STATE_KEYS;
    const secrets = typeof keys === 'string' ? KeyRing.parse(keys) : keys;
    if (secrets === undefined || secrets.length === 0)
      throw new TypeError(
        "RedisLiveCallRouter seals its messages with the key ring the fleet shares: pass { keys } (the replicas' fleet.stateKeys) or set PARLEY_STATE_KEYS, the same on every replica.",
      );
    this.#sealing = liveBusSeal(secrets);
    this.#sealing.catch(() => {}); // reported by ready()
    this.#checkMs = options.checkMs ?? 1_000;
    this.#maxChars = options.maxMessageChars ?? MAX_RESULT_BYTES + 64 * 1024;
    this.#drops = new DropLog(options.log ?? stderrLogger, 'gateway fleet bus');
  }

  serve(
    resume: (request: Resume, listeners: LiveListeners) => Promise<Step>,
    drop?: (handle: string, owner: Owner) => void,
  ): void {
    if (this.#serve) throw new Error('A RedisLiveCallRouter serves one gateway; create one per gateway.');
    this.#serve = resume;
    this.#drop = drop;
    void this.ready().catch(() => {});
  }

  /**
   * Resolves once this replica listens on its channel (so handles it issues can be resumed); rejects
   * when its key ring cannot be used.
   */
  ready(): Promise<void> {
    this.#subscribed ??= this.#subscribe();
    return this.#subscribed;
  }

  async forward(replica: string, asked: Resume, listeners: LiveListeners = {}): Promise<Step> {
    const name = readableName(replica);
    // The holder answers `wait` after the hold; a longer hold (a 2025 host's) is asked again then.
    const resume = { ...asked, holdMs: Math.min(asked.holdMs, MAX_HOLD_MS) };
    if (this.#closed) throw new ParkedCallError('This gateway replica is stopping; call again.');
    await this.ready();
    const id = randomUUID();
    const waitMs = resume.holdMs + this.#answerTimeoutMs;
    const until = Date.now() + waitMs;
    const { text, chars } = await this.#seal!.seal(
      this.#channel(replica),
      { t: 'resume', id, from: this.replica },
      { until, resume: resumeOnWire(resume) },
    );
    if (chars > this.#maxChars)
      throw new ParkedCallError(
        `These answers are too large to pass to the gateway replica that holds the call (${chars} characters; at most ${this.#maxChars}).`,
      );
    return new Promise<Step>((resolve, reject) => {
      const outgoing: Outgoing = { replica, handle: resume.handle, listeners, seq: 0, resolve, reject };
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

  /**
   * Tells `replica` that the host of the call `handle` it holds cancelled it (for `owner`), so it
   * drops the call and cancels it upstream. Sent once, not answered: a replica that is gone took
   * the call with it.
   */
  cancel(replica: string, handle: string, owner: Owner): void {
    if (this.#closed) return;
    const header = { t: 'cancel', id: randomUUID(), from: this.replica };
    const body = { until: Date.now() + CANCEL_TTL_MS, handle, owner: owner ?? null };
    void this.ready()
      .then(() => this.#publish(this.#channel(replica), header, body))
      .catch(() => {});
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
    this.#seal = await this.#sealing;
    if (this.#closed) throw new ParkedCallError('This gateway replica is stopping; call again.');
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
    subscriber.on('message', (_channel: string, text: string) => this.#inbox.take(text));
    await subscriber.subscribe(this.#channel(this.replica));
  }

  async #receive(text: string): Promise<void> {
    const read = await this.#seal!.open(this.#channel(this.replica), text, this.#maxChars);
    if ('dropped' in read) {
      this.#drops.drop('warn', read.dropped);
      return;
    }
    const message = read.message;
    if (message.t === 'resume' || message.t === 'cancel') {
      const refused = this.#refusedToHolder(message);
      if (refused !== undefined) this.#drops.drop(refused.level, refused.reason);
      else if (message.t === 'resume') void this.#answer(message);
      else this.#drop?.(message.handle, message.owner);
      return;
    }
    const outgoing = this.#outgoing.get(message.id);
    if (outgoing === undefined) {
      this.#drops.drop('info', 'a reply nobody here waits for (it came too late, or is a copy)');
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
    if (message.t === 'note') {
      if (message.seq <= outgoing.seq)
        this.#drops.drop('warn', 'a copy of a note already passed on (replayed)');
      else if (message.seq > MAX_NOTES_PER_RESUME)
        this.#drops.drop('warn', `notes past the ${MAX_NOTES_PER_RESUME} one resume may bring`);
      else {
        outgoing.seq = message.seq;
        hear(outgoing.listeners, message.note);
      }
      return;
    }
    this.#settle(message.id);
    if (message.t === 'step') outgoing.resolve(message.step);
    else outgoing.reject(fromWireError(message.error, readableName(outgoing.replica)));
  }

  /**
   * Why a resume or cancel is not acted on here (another replica's call, late, too far ahead, a
   * copy), if it is not. Late is the fleet's own timing (`info`); the rest is a peer's bug or a
   * message replayed (`warn`).
   */
  #refusedToHolder(
    message: Extract<LiveMessage, { t: 'resume' | 'cancel' }>,
  ): { readonly level: 'info' | 'warn'; readonly reason: string } | undefined {
    const handle = message.t === 'resume' ? message.resume.handle : message.handle;
    if (handle.slice(0, handle.indexOf('.')) !== this.replica)
      return { level: 'warn', reason: `a ${message.t} for a call this replica does not hold` };
    const now = Date.now();
    if (now > message.until)
      return {
        level: 'info',
        reason:
          message.t === 'resume'
            ? 'a resume that came after its sender stopped waiting'
            : 'a cancel that came too late',
      };
    if (message.until - now > MAX_AHEAD_MS)
      return { level: 'warn', reason: `a ${message.t} with a deadline further ahead than any replica sets` };
    switch (this.#seen.admit(message.id, message.until, now)) {
      case 'copy':
        return { level: 'warn', reason: `a copy of a ${message.t} already acted on (replayed)` };
      case 'full':
        return {
          level: 'warn',
          reason: `a ${message.t} past the ${MAX_SEEN} this replica keeps track of at once`,
        };
      default:
        return undefined;
    }
  }

  /**
   * Serves a resume another replica sent here: what the call says meanwhile goes to that replica
   * as notes, then the step (or the error).
   */
  async #answer(message: Extract<LiveMessage, { t: 'resume' }>): Promise<void> {
    const serve = this.#serve;
    if (serve === undefined || this.#closed) return;
    const to = this.#channel(message.from);
    const header = (t: string): BusHeader => ({ t, id: message.id, from: this.replica });
    const notes = this.#notes(to, header('note'));
    const reply: [string, Record<string, unknown>] = await serve(message.resume, notes.listeners).then(
      (step) => ['step', { step }],
      (error: unknown) => ['error', { error: toWireError(error) }],
    );
    await notes.sent(); // the notes go before the step
    try {
      const { text, chars } = await this.#seal!.seal(to, header(reply[0]), reply[1]);
      if (chars <= this.#maxChars) {
        await this.#redis.publish(to, text);
        return;
      }
      const error = {
        kind: 'tool',
        message: `The upstream's answer is too large to pass between the gateway's replicas (${chars} characters; at most ${this.#maxChars}).`,
      };
      await this.#publish(to, header('error'), { error });
    } catch {
      // Redis is away: the sender's deadline, or its reconnect, ends its wait.
    }
  }

  /**
   * Listeners that send what a held call says to `channel` as notes of one resume (`header`), in
   * order, counted, at most `MAX_NOTES_PER_RESUME` of at most `MAX_NOTE_CHARS` each; `sent`
   * resolves once all went (or failed: a note Redis did not take is lost, the round goes on).
   */
  #notes(channel: string, header: BusHeader): { listeners: LiveListeners; sent: () => Promise<void> } {
    let seq = 0;
    let sent = Promise.resolve();
    const send = (note: Note) => {
      if (seq >= MAX_NOTES_PER_RESUME) {
        if (seq++ === MAX_NOTES_PER_RESUME)
          this.#drops.drop(
            'warn',
            `the upstream's progress and logs past ${MAX_NOTES_PER_RESUME} for one round`,
          );
        return;
      }
      if (charsOf(note) > MAX_NOTE_CHARS) {
        this.#drops.drop(
          'info',
          `a log message or progress of the upstream larger than ${MAX_NOTE_CHARS} characters`,
        );
        return;
      }
      const body = { seq: ++seq, note };
      sent = sent
        .then(() => this.#publish(channel, header, body))
        .then(
          () => {},
          () => {},
        );
    };
    const listeners: LiveListeners = {
      progress: ({ progress, total, message }) =>
        send({
          kind: 'progress',
          progress,
          ...(total !== undefined && { total }),
          ...(message !== undefined && { message }),
        }),
      log: ({ level, data, logger }) =>
        send({ kind: 'log', level, data, ...(logger !== undefined && { logger }) }),
      urlComplete: (elicitationId) => send({ kind: 'url-complete', elicitationId }),
    };
    return { listeners, sent: () => sent };
  }

  /** Seals a message for `channel` and publishes it; resolves with how many replicas listen there. */
  async #publish(channel: string, header: BusHeader, body: Record<string, unknown>): Promise<number> {
    const { text } = await this.#seal!.seal(channel, header, body);
    return this.#redis.publish(channel, text);
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

/** The length of a note's JSON (what cannot be JSON counts as too long). */
function charsOf(note: Note): number {
  try {
    return JSON.stringify(note).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Passes a note to the host's listeners; a listener that throws changes nothing here. */
function hear(listeners: LiveListeners, note: Note): void {
  try {
    if (note.kind === 'progress') {
      const { kind: _kind, ...params } = note;
      listeners.progress?.(params);
    } else if (note.kind === 'log') {
      const { kind: _kind, ...params } = note;
      listeners.log?.(params);
    } else listeners.urlComplete?.(note.elicitationId);
  } catch {
    // The host's run went away meanwhile.
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
