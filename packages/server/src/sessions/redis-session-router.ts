import { randomUUID } from 'node:crypto';
import { KeyRing, type SealSecret } from '@parley/core/seal';
import type { Redis } from 'ioredis';
import { BusInbox } from '../fleet-bus/bus-inbox.js';
import { BusSeal } from '../fleet-bus/bus-seal.js';
import { DropLog } from '../fleet-bus/drop-log.js';
import { SeenMessages } from '../fleet-bus/seen-messages.js';
import { requestIdsOf } from '../http/request-ids.js';
import { rpcError, SESSION_NOT_FOUND } from '../http/rpc-error.js';
import { type Logger, stderrLogger } from '../log.js';
import { requireRedisClient } from '../require-redis-client.js';
import { type ForwardMessage, fromBase64, headersToPass, SESSION_BUS, toBase64 } from './forward-wire.js';
import { SealedRecords } from './sealed-records.js';
import type { SessionHost, SessionRecord, SessionRouter } from './session-router.js';

/** How a `RedisSessionRouter` names this replica, where it keeps its keys, and how it watches the other replicas. */
export interface RedisSessionRouterOptions {
  /**
   * A readable name for this replica (e.g. `r1`); its id in the fleet is the name plus a random
   * part, so a replica restarted under the same name never passes for the process before it.
   */
  readonly name?: string;
  /** Key and channel prefix, so several servers can share one Redis. Default `parley:session:`. */
  readonly prefix?: string;
  /**
   * How often this replica says it is alive, and checks the replicas it waits on. A replica silent
   * for three of these counts as stopped. Default 1000.
   */
  readonly heartbeatMs?: number;
  /** How long a passed request waits for the owner's first answer before it fails. Default 10000, at most 300000. */
  readonly answerTimeoutMs?: number;
  /**
   * The key ring the fleet's replicas share: `id:base64secret` text, sealing key first, or its
   * keys. Every message between replicas, and every session record in Redis, is sealed with keys
   * derived from it. Default: the server's own (`state.keys`, else `PARLEY_STATE_KEYS`).
   */
  readonly keys?: string | readonly SealSecret[];
  /** The largest message this replica sends or reads on the bus, in characters of JSON (before it is sealed). Default 16 MiB + 64 KiB. */
  readonly maxMessageChars?: number;
  /** Where dropped messages and records are reported (at most one line per 5 s). Default: the server's logger. */
  readonly log?: Logger;
}

/** A request passed to another replica, waiting for (or streaming) its response. */
interface Outgoing {
  readonly owner: string;
  readonly requestIds: readonly (string | number)[];
  nextSeq: number;
  settle?: (answer: Response | 'gone' | 'unreachable') => void;
  stream?: ReadableStreamDefaultController<Uint8Array>;
  isEventStream: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/** Everything derived from the keys, made once they are checked. */
interface Sealed {
  readonly bus: BusSeal<ForwardMessage>;
  readonly records: SealedRecords;
}

const encoder = new TextEncoder();
const NAME = /^[A-Za-z0-9_-]{1,32}$/;
const MAX_ANSWER_TIMEOUT_MS = 300_000;
/** The furthest ahead a request's deadline may be (what a replica sets, and clocks apart). */
const MAX_AHEAD_MS = MAX_ANSWER_TIMEOUT_MS + 60_000;
/** How long a cancel stays good on the bus. */
const CANCEL_TTL_MS = 30_000;
/** Requests remembered at once (each until its deadline), so a copy is not served twice. */
const MAX_SEEN = 100_000;
/** The most bytes of a response one message carries (a larger chunk goes as several). */
const MAX_CHUNK_BYTES = 1024 * 1024;
const NO_KEYS =
  'RedisSessionRouter seals what replicas pass each other (requests with their credentials, answers) with the key ring the fleet shares, ' +
  'and this server has none: it seals requestState with a random key of this process, so no other replica could open its rounds either. ' +
  'Set stateKeys (createServer({ state: { keys } })) or PARLEY_STATE_KEYS to the same value on every replica, or pass { keys } to the router.';

/**
 * 2025-era sessions served by any replica of a fleet, with no balancer affinity, over Redis
 * (ioredis, an optional peer dependency: `npm install ioredis`).
 *
 * A session lives in the replica that opened it: its handler may be suspended on the client's
 * answer to `elicitation/create`. Each session is recorded in Redis (owner, principal, protocol
 * version, client capabilities, expiry). When a request with an `Mcp-Session-Id` reaches a replica
 * that does not hold the session (the answer to a question, `notifications/cancelled`, the GET
 * stream, DELETE), that replica passes it to the owner over pub/sub; the owner serves it through
 * its own endpoint, with every check it makes (the principal binding among them), and streams the
 * status, headers and body back. A replica that stopped (its heartbeat lapsed) ends the requests
 * waiting on it: a stream in progress gets a JSON-RPC error for each of its calls, later requests
 * get 404 "Session not found", so the client starts a new session. Nothing waits forever.
 *
 * Every message between replicas is sealed (AES-256-GCM) with keys derived by HKDF from the key
 * ring the fleet shares for `requestState` (`keys`, by default the server's `state.keys` /
 * `PARLEY_STATE_KEYS`; rotated as sealed state is: the first key seals, any opens), and bound to
 * the channel it is published on, its kind, its id and its sender. Session records are sealed too,
 * bound to their Redis key, which names a session by a hash of its id. So whoever can read or
 * publish on the fleet's Redis without the keys can read neither the requests passed (their
 * credentials, the answers people gave) nor the responses, cannot inject a request into another
 * replica's session, and cannot point a session at a replica of their choosing with a forged
 * record; a copy of a request replayed later is not served twice. Messages are capped in size; one
 * that does not open, is malformed, oversized, late or a copy is dropped and logged (why, never
 * what it said), and changes nothing. What the seal does not hide or prevent: which replicas talk,
 * when, how often and how much (kinds, ids and sizes are visible), how many sessions each replica
 * holds and when they are used; and whoever can write to Redis can still delete or delay what is
 * there (requests then fail, with a clear error, and clients start new sessions). Keep Redis
 * private to the fleet all the same. A server without shared keys cannot use this router (`attach`
 * says how to set them). The simpler alternative is balancer affinity:
 * `createServer({ sessions: { idPrefix } })` and a balancer that routes on that prefix (see the
 * README's "A fleet of replicas").
 *
 * @example
 * import { createServer } from '@parley/server';
 * import { RedisSessionRouter } from '@parley/server/redis';
 * import { Redis } from 'ioredis';
 *
 * // PARLEY_STATE_KEYS (id:base64secret, sealing key first) set to the same value on every replica.
 * const server = createServer({
 *   name: 'store',
 *   version: '1.0.0',
 *   sessions: { router: new RedisSessionRouter(new Redis(process.env.REDIS_URL!), { name: 'r1' }) },
 * });
 */
export class RedisSessionRouter implements SessionRouter {
  /** This process's id in the fleet (its name and a random part). */
  readonly replicaId: string;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #heartbeatMs: number;
  readonly #answerTimeoutMs: number;
  readonly #keys: readonly SealSecret[] | undefined;
  readonly #maxChars: number;
  readonly #outgoing = new Map<string, Outgoing>();
  /** Requests served here for other replicas: how to stop each, and who sent it. */
  readonly #serving = new Map<string, { readonly stop: () => void; readonly from: string }>();
  readonly #toRefresh = new Set<string>();
  readonly #seen = new SeenMessages(MAX_SEEN);
  #log: Logger | undefined;
  #drops: DropLog | undefined;
  readonly #inbox = new BusInbox(
    (text) => this.#receive(text),
    (reason) => this.#drops?.drop('warn', reason),
  );
  #host: SessionHost | undefined;
  #sealed: Sealed | undefined;
  /** Resolves once the keys are derived and this replica listens on its channel; rejects when its keys cannot be used. */
  #ready: Promise<Sealed> | undefined;
  #subscriber: Redis | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(redis: Redis, options: RedisSessionRouterOptions = {}) {
    this.#redis = requireRedisClient('RedisSessionRouter', redis);
    const name = options.name ?? 'replica';
    if (!NAME.test(name))
      throw new TypeError(
        `RedisSessionRouter name ${JSON.stringify(name)} is not valid: use 1 to 32 letters, digits, "_" and "-" (e.g. "r1").`,
      );
    this.replicaId = `${name}-${randomUUID()}`;
    this.#prefix = options.prefix ?? 'parley:session:';
    this.#heartbeatMs = options.heartbeatMs ?? 1000;
    this.#answerTimeoutMs = options.answerTimeoutMs ?? 10_000;
    if (!(this.#answerTimeoutMs >= 0 && this.#answerTimeoutMs <= MAX_ANSWER_TIMEOUT_MS))
      throw new TypeError(
        `RedisSessionRouter answerTimeoutMs must be 0 to ${MAX_ANSWER_TIMEOUT_MS} (got ${this.#answerTimeoutMs}).`,
      );
    const keys = typeof options.keys === 'string' ? KeyRing.parse(options.keys) : options.keys;
    this.#keys = keys && keys.length > 0 ? keys : undefined;
    this.#maxChars = options.maxMessageChars ?? 16 * 1024 * 1024 + 64 * 1024;
    this.#log = options.log;
  }

  /**
   * Serves `host`'s sessions through the fleet. Throws when there is no shared key ring (neither
   * `keys` nor the server's `state.keys` / `PARLEY_STATE_KEYS`): a fleet needs one.
   */
  attach(host: SessionHost): void {
    if (this.#host) throw new Error('A RedisSessionRouter serves one endpoint; create one per endpoint.');
    const fromEnv = process.env.PARLEY_STATE_KEYS;
    const secrets = this.#keys ?? host.stateKeys ?? (fromEnv ? KeyRing.parse(fromEnv) : undefined);
    if (secrets === undefined || secrets.length === 0) throw new TypeError(NO_KEYS);
    this.#host = host;
    this.#log ??= host.log ?? stderrLogger;
    this.#drops = new DropLog(this.#log, 'session bus');
    this.#ready = this.#start(secrets);
    this.#ready.catch((error: unknown) =>
      this.#log?.(
        'error',
        `RedisSessionRouter cannot seal with its key ring, so this replica passes no session requests: ${error instanceof Error ? error.message : String(error)}. ` +
          'Fix stateKeys / PARLEY_STATE_KEYS (the same on every replica).',
      ),
    );
    void this.#beat();
    this.#timer = setInterval(() => void this.#beat(), this.#heartbeatMs);
    this.#timer.unref?.();
  }

  async #start(secrets: readonly SealSecret[]): Promise<Sealed> {
    const [bus, records] = await Promise.all([
      BusSeal.create(secrets, SESSION_BUS),
      SealedRecords.create(secrets, this.#prefix),
    ]);
    this.#sealed = { bus, records };
    if (this.#closed) return this.#sealed;
    const subscriber = this.#redis.duplicate();
    this.#subscriber = subscriber;
    let readyBefore = false;
    subscriber.on('ready', () => {
      // Redis came back (perhaps empty): messages sent meanwhile may be lost, so what waits on them
      // ends now, and this replica's sessions and heartbeat are written again.
      if (readyBefore) void this.#resync();
      readyBefore = true;
    });
    subscriber.on('error', () => {}); // ioredis reconnects by itself; the heartbeat notices the gap
    subscriber.on('message', (_channel: string, text: string) => this.#inbox.take(text));
    await subscriber.subscribe(this.#channel(this.replicaId)).catch(() => {});
    return this.#sealed;
  }

  async opened(session: Omit<SessionRecord, 'owner'>): Promise<void> {
    const sealed = await this.#ready?.catch(() => undefined);
    if (!sealed) return;
    const record: SessionRecord = { ...session, owner: this.replicaId };
    await this.#redis
      .set(sealed.records.keyOf(record.id), await sealed.records.seal(record), 'PX', this.#recordTtl())
      .catch(() => {});
  }

  touched(sessionId: string): void {
    this.#toRefresh.add(sessionId);
  }

  async closed(sessionId: string): Promise<void> {
    this.#toRefresh.delete(sessionId);
    const sealed = await this.#ready?.catch(() => undefined);
    if (!sealed) return;
    await this.#redis.del(sealed.records.keyOf(sessionId)).catch(() => {});
  }

  async forward(
    sessionId: string,
    request: Request,
    principal: string | undefined,
  ): Promise<Response | 'not-found' | 'gone' | 'unreachable'> {
    if (this.#closed || !this.#ready) return 'unreachable';
    const deadline = Date.now() + this.#answerTimeoutMs;
    const sealed = await withDeadline(this.#ready, deadline);
    if (sealed === undefined) return 'unreachable';
    const looked = await withDeadline(this.#lookUp(sealed.records, sessionId), deadline);
    if (looked === undefined) return 'unreachable';
    if (looked === 'not-found' || looked === 'gone') return looked;
    const record = looked;
    if ((record.principal ?? undefined) !== principal || record.owner === this.replicaId) return 'not-found';
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const id = randomUUID();
    const channel = this.#channel(record.owner);
    const { text, chars } = await sealed.bus.seal(
      channel,
      { t: 'req', id, from: this.replicaId },
      {
        method: request.method,
        url: request.url,
        headers: headersToPass(request.headers),
        ...(body && body.byteLength > 0 && { body: toBase64(body) }),
        until: deadline,
      },
    );
    if (chars > this.#maxChars) {
      const message = `This request is too large to pass to the replica holding its session (${chars} characters; at most ${this.#maxChars}).`;
      return Response.json(rpcError(null, SESSION_NOT_FOUND, message), { status: 413 });
    }
    return new Promise((resolve) => {
      const outgoing: Outgoing = {
        owner: record.owner,
        requestIds: body ? requestIdsIn(body) : [],
        nextSeq: 0,
        isEventStream: false,
        settle: resolve,
      };
      this.#outgoing.set(id, outgoing);
      outgoing.timer = setTimeout(
        () => {
          this.#cancel(id);
          this.#end(id, 'unreachable', 'The replica holding this session did not answer in time.');
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#redis.publish(channel, text).then(
        (receivers) => {
          // Nobody listens on the owner's channel: it stopped (its heartbeat has not lapsed yet).
          if (receivers === 0) this.#end(id, 'gone', 'The replica holding this session stopped.');
        },
        () => this.#end(id, 'unreachable', 'Redis could not be reached.'),
      );
    });
  }

  /** Requests passed from here and not ended, and requests served here for other replicas. */
  get inFlight(): number {
    return this.#outgoing.size + this.#serving.size;
  }

  /** Messages and records dropped so far (they did not open, were malformed, oversized, late or copies). */
  get dropped(): number {
    return this.#drops?.count ?? 0;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    for (const id of [...this.#outgoing.keys()]) this.#end(id, 'unreachable', 'This replica is stopping.');
    for (const { stop } of this.#serving.values()) stop();
    await this.#redis.del(this.#aliveKey(this.replicaId)).catch(() => {});
    const subscriber = this.#subscriber;
    await subscriber?.quit().catch(() => subscriber.disconnect());
  }

  async #lookUp(records: SealedRecords, sessionId: string): Promise<SessionRecord | 'not-found' | 'gone'> {
    const key = records.keyOf(sessionId);
    const raw = await this.#redis.get(key);
    if (raw === null) return 'not-found';
    const record = await records.open(sessionId, raw);
    if ('dropped' in record) {
      // Not ours to act on (nor to delete): the session counts as not found here.
      this.#drops?.drop('warn', record.dropped);
      return 'not-found';
    }
    if ((await this.#redis.exists(this.#aliveKey(record.owner))) === 0) {
      await this.#redis.del(key);
      return 'gone';
    }
    return record;
  }

  async #receive(text: string): Promise<void> {
    const sealed = this.#sealed;
    if (!sealed) return;
    const read = await sealed.bus.open(this.#channel(this.replicaId), text, this.#maxChars);
    if ('dropped' in read) {
      this.#drops?.drop('warn', read.dropped);
      return;
    }
    const message = read.message;
    switch (message.t) {
      case 'req': {
        const refused = this.#refusedRequest(message.id, message.until, MAX_AHEAD_MS, 'request');
        if (refused) this.#drops?.drop(refused.level, refused.reason);
        else void this.#serve(message);
        return;
      }
      case 'cancel': {
        const refused = this.#refusedRequest(message.id, message.until, CANCEL_TTL_MS + 60_000, 'cancel');
        const serving = this.#serving.get(message.req);
        if (refused) this.#drops?.drop(refused.level, refused.reason);
        else if (serving?.from === message.from) serving.stop();
        else
          this.#drops?.drop(
            'info',
            'a cancel for a request not served here (it ended, or came from elsewhere)',
          );
        return;
      }
    }
    const outgoing = this.#outgoing.get(message.id);
    if (outgoing === undefined) {
      this.#drops?.drop('info', 'a reply nobody here waits for (it came too late, or is a copy)');
      return;
    }
    if (message.from !== outgoing.owner) {
      this.#drops?.drop('warn', 'a reply from a replica the request was not passed to');
      return;
    }
    switch (message.t) {
      case 'head': {
        if (!outgoing.settle) {
          this.#drops?.drop('warn', 'a copy of a response head already taken (replayed)');
          return;
        }
        clearTimeout(outgoing.timer);
        const settle = outgoing.settle;
        outgoing.settle = undefined;
        const headers = new Headers(message.headers as [string, string][]);
        outgoing.isEventStream = (headers.get('content-type') ?? '').includes('text/event-stream');
        if (!message.hasBody) {
          this.#outgoing.delete(message.id);
          settle(respond(null, message.status, headers));
          return;
        }
        const body = new ReadableStream<Uint8Array>({
          start: (controller) => {
            outgoing.stream = controller;
          },
          cancel: () => {
            if (this.#outgoing.delete(message.id)) this.#cancel(message.id, outgoing.owner);
          },
        });
        const response = respond(body, message.status, headers);
        if (response === 'unreachable' && this.#outgoing.delete(message.id))
          this.#cancel(message.id, outgoing.owner);
        settle(response);
        return;
      }
      case 'data':
      case 'end': {
        if (!outgoing.stream) {
          this.#drops?.drop('warn', 'a part of a response that has not begun');
          return;
        }
        if (message.seq < outgoing.nextSeq) {
          this.#drops?.drop('warn', 'a copy of a part of a response already passed on (replayed)');
          return;
        }
        if (message.seq > outgoing.nextSeq) {
          this.#end(message.id, 'unreachable', 'Part of the response was lost on the way.');
          return;
        }
        if (message.t === 'end') {
          this.#outgoing.delete(message.id);
          outgoing.stream.close();
          return;
        }
        outgoing.nextSeq++;
        outgoing.stream.enqueue(fromBase64(message.chunk));
        return;
      }
      case 'fail':
        this.#end(message.id, 'unreachable', message.message);
        return;
    }
  }

  /**
   * Why a request or cancel passed here is not acted on (late, too far ahead, a copy), if it is not.
   * Late is the fleet's own timing (`info`); the rest is a peer's bug or a message replayed (`warn`).
   */
  #refusedRequest(
    id: string,
    until: number,
    aheadMs: number,
    what: 'request' | 'cancel',
  ): { readonly level: 'info' | 'warn'; readonly reason: string } | undefined {
    const now = Date.now();
    if (now > until) return { level: 'info', reason: `a ${what} that came after its sender stopped waiting` };
    if (until - now > aheadMs)
      return { level: 'warn', reason: `a ${what} with a deadline further ahead than any replica sets` };
    switch (this.#seen.admit(id, until, now)) {
      case 'copy':
        return { level: 'warn', reason: `a copy of a ${what} already acted on (replayed)` };
      case 'full':
        return {
          level: 'warn',
          reason: `a ${what} past the ${MAX_SEEN} this replica keeps track of at once`,
        };
      default:
        return undefined;
    }
  }

  /** Serves a request another replica passed here, streaming the response back to it. */
  async #serve(message: Extract<ForwardMessage, { t: 'req' }>): Promise<void> {
    const host = this.#host;
    const bus = this.#sealed?.bus;
    if (!host || !bus || this.#closed) return;
    const channel = this.#channel(message.from);
    const reply = async (t: ForwardMessage['t'], body: Record<string, unknown>) => {
      const { text } = await bus.seal(channel, { t, id: message.id, from: this.replicaId }, body);
      return this.#redis.publish(channel, text);
    };
    const abort = new AbortController();
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    this.#serving.set(message.id, {
      from: message.from,
      stop: () => {
        abort.abort();
        void reader?.cancel().catch(() => {});
      },
    });
    try {
      const response = await host.serve(
        new Request(message.url, {
          method: message.method,
          headers: message.headers as [string, string][],
          signal: abort.signal,
          ...(message.body !== undefined && { body: fromBase64(message.body) }),
        }),
      );
      await reply('head', {
        status: response.status,
        headers: headersToPass(response.headers),
        hasBody: response.body !== null,
      });
      if (!response.body) return;
      reader = response.body.getReader();
      if (abort.signal.aborted) await reader.cancel();
      let seq = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (let at = 0; at < value.byteLength; at += MAX_CHUNK_BYTES)
          await reply('data', { seq: seq++, chunk: toBase64(value.subarray(at, at + MAX_CHUNK_BYTES)) });
      }
      if (!abort.signal.aborted) await reply('end', { seq });
    } catch (error) {
      if (!abort.signal.aborted) {
        const text = error instanceof Error ? error.message : String(error);
        await reply('fail', { message: `The replica holding this session failed: ${text}` })
          .then(() => {})
          .catch(() => {});
      }
    } finally {
      this.#serving.delete(message.id);
    }
  }

  /**
   * Ends a passed request: before its response began, with `answer`; after, by ending its stream
   * (with a JSON-RPC error for each call it carried, so no call waits forever).
   */
  #end(id: string, answer: 'gone' | 'unreachable', reason: string): void {
    const outgoing = this.#outgoing.get(id);
    if (!outgoing) return;
    this.#outgoing.delete(id);
    clearTimeout(outgoing.timer);
    if (outgoing.settle) {
      outgoing.settle(answer);
      return;
    }
    const stream = outgoing.stream;
    if (!stream) return;
    this.#cancel(id, outgoing.owner);
    try {
      if (outgoing.isEventStream) {
        for (const requestId of outgoing.requestIds) {
          const error = {
            jsonrpc: '2.0',
            id: requestId,
            error: { code: SESSION_NOT_FOUND, message: `${reason} Start a new session with initialize.` },
          };
          // The blank line first ends any event the lost part left half written.
          stream.enqueue(encoder.encode(`\n\nevent: message\ndata: ${JSON.stringify(error)}\n\n`));
        }
      }
      stream.close();
    } catch {
      // The client already went away.
    }
  }

  #cancel(id: string, owner = this.#outgoing.get(id)?.owner): void {
    const bus = this.#sealed?.bus;
    if (owner === undefined || !bus) return;
    const channel = this.#channel(owner);
    const header = { t: 'cancel', id: randomUUID(), from: this.replicaId };
    void bus
      .seal(channel, header, { req: id, until: Date.now() + CANCEL_TTL_MS })
      .then(({ text }) => this.#redis.publish(channel, text))
      .then(() => {})
      .catch(() => {});
  }

  /** Says this replica is alive, keeps its used sessions' records, ends what waits on stopped replicas. */
  async #beat(): Promise<void> {
    if (this.#closed) return;
    try {
      const records = this.#sealed?.records;
      const batch = this.#redis.multi();
      batch.set(this.#aliveKey(this.replicaId), '1', 'PX', this.#heartbeatMs * 3);
      if (records) {
        for (const id of this.#toRefresh) batch.pexpire(records.keyOf(id), this.#recordTtl());
        this.#toRefresh.clear();
      }
      await batch.exec();
      const owners = [...new Set([...this.#outgoing.values()].map((outgoing) => outgoing.owner))];
      if (owners.length === 0) return;
      const alive = await Promise.all(owners.map((owner) => this.#redis.exists(this.#aliveKey(owner))));
      const stopped = new Set(owners.filter((_, index) => alive[index] === 0));
      if (stopped.size === 0) return;
      for (const [id, outgoing] of [...this.#outgoing]) {
        if (stopped.has(outgoing.owner)) this.#end(id, 'gone', 'The replica holding this session stopped.');
      }
    } catch {
      // Redis is away; the subscriber's reconnect ends what may have been lost.
    }
  }

  async #resync(): Promise<void> {
    for (const id of [...this.#outgoing.keys()])
      this.#end(id, 'unreachable', 'The connection to the other replicas was interrupted.');
    for (const { stop } of [...this.#serving.values()]) stop();
    const host = this.#host;
    const records = this.#sealed?.records;
    if (!host || !records || this.#closed) return;
    try {
      const batch = this.#redis.multi();
      for (const session of host.sessions()) {
        const record: SessionRecord = { ...session, owner: this.replicaId };
        batch.set(records.keyOf(session.id), await records.seal(record), 'PX', this.#recordTtl());
      }
      batch.set(this.#aliveKey(this.replicaId), '1', 'PX', this.#heartbeatMs * 3);
      await batch.exec();
    } catch {
      // Redis went away again; its next return writes them again.
    }
  }

  #recordTtl(): number {
    return (this.#host?.idleMs ?? 30 * 60_000) + this.#heartbeatMs * 3;
  }

  #aliveKey(replica: string): string {
    return `${this.#prefix}alive:${replica}`;
  }

  #channel(replica: string): string {
    return `${this.#prefix}to:${replica}`;
  }
}

/** A response as the owner described it; one the platform refuses (a body with a 204) ends the request. */
function respond(
  body: ReadableStream<Uint8Array> | null,
  status: number,
  headers: Headers,
): Response | 'unreachable' {
  try {
    return new Response(body, { status, headers });
  } catch {
    return 'unreachable';
  }
}

/** The ids of the JSON-RPC requests in a POST body. */
function requestIdsIn(body: Uint8Array): (string | number)[] {
  try {
    return requestIdsOf(JSON.parse(new TextDecoder().decode(body)));
  } catch {
    return [];
  }
}

/** `work`'s result, or `undefined` once `deadline` passed (or when `work` fails). */
async function withDeadline<T>(work: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
