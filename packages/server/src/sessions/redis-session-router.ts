import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { requestIdsOf } from '../http/request-ids.js';
import { SESSION_NOT_FOUND } from '../http/rpc-error.js';
import { requireRedisClient } from '../require-redis-client.js';
import {
  type ForwardMessage,
  fromBase64,
  headersToPass,
  parseForwardMessage,
  toBase64,
} from './forward-wire.js';
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
  /** How long a passed request waits for the owner's first answer before it fails. Default 10000. */
  readonly answerTimeoutMs?: number;
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

const encoder = new TextEncoder();

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
 * Passed requests travel through Redis whole, credentials included: keep that Redis private to the
 * fleet. The simpler alternative is balancer affinity: `createServer({ sessions: { idPrefix } })`
 * and a balancer that routes on that prefix (see the README's "A fleet of replicas").
 *
 * @example
 * import { createServer } from '@parley/server';
 * import { RedisSessionRouter } from '@parley/server/redis';
 * import { Redis } from 'ioredis';
 *
 * const server = createServer({
 *   name: 'store',
 *   version: '1.0.0',
 *   sessions: { router: new RedisSessionRouter(new Redis(process.env.REDIS_URL!)) },
 * });
 */
export class RedisSessionRouter implements SessionRouter {
  /** This process's id in the fleet (its name and a random part). */
  readonly replicaId: string;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #heartbeatMs: number;
  readonly #answerTimeoutMs: number;
  readonly #outgoing = new Map<string, Outgoing>();
  readonly #serving = new Map<string, () => void>();
  readonly #toRefresh = new Set<string>();
  #host: SessionHost | undefined;
  #subscriber: Redis | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #subscribed: Promise<unknown> | undefined;
  #closed = false;

  constructor(redis: Redis, options: RedisSessionRouterOptions = {}) {
    this.#redis = requireRedisClient('RedisSessionRouter', redis);
    this.replicaId = `${options.name ?? 'replica'}-${randomUUID()}`;
    this.#prefix = options.prefix ?? 'parley:session:';
    this.#heartbeatMs = options.heartbeatMs ?? 1000;
    this.#answerTimeoutMs = options.answerTimeoutMs ?? 10_000;
  }

  attach(host: SessionHost): void {
    if (this.#host) throw new Error('A RedisSessionRouter serves one endpoint; create one per endpoint.');
    this.#host = host;
    const subscriber = this.#redis.duplicate();
    this.#subscriber = subscriber;
    let readyBefore = false;
    subscriber.on('ready', () => {
      // Redis came back (perhaps empty): messages sent meanwhile may be lost, so what waits on them
      // ends now, and this replica's sessions and heartbeat are written again.
      if (readyBefore) this.#resync();
      readyBefore = true;
    });
    subscriber.on('error', () => {}); // ioredis reconnects by itself; the heartbeat notices the gap
    subscriber.on('message', (_channel: string, text: string) => this.#receive(text));
    this.#subscribed = subscriber.subscribe(this.#channel(this.replicaId)).catch(() => {});
    void this.#beat();
    this.#timer = setInterval(() => void this.#beat(), this.#heartbeatMs);
    this.#timer.unref?.();
  }

  async opened(session: Omit<SessionRecord, 'owner'>): Promise<void> {
    const record: SessionRecord = { ...session, owner: this.replicaId };
    await this.#redis
      .set(this.#sessionKey(record.id), JSON.stringify(record), 'PX', this.#recordTtl())
      .catch(() => {});
  }

  touched(sessionId: string): void {
    this.#toRefresh.add(sessionId);
  }

  async closed(sessionId: string): Promise<void> {
    this.#toRefresh.delete(sessionId);
    await this.#redis.del(this.#sessionKey(sessionId)).catch(() => {});
  }

  async forward(
    sessionId: string,
    request: Request,
    principal: string | undefined,
  ): Promise<Response | 'not-found' | 'gone' | 'unreachable'> {
    if (this.#closed) return 'unreachable';
    const deadline = Date.now() + this.#answerTimeoutMs;
    const looked = await withDeadline(this.#lookUp(sessionId), deadline);
    if (looked === undefined) return 'unreachable';
    if (looked === 'not-found' || looked === 'gone') return looked;
    const record = looked;
    if ((record.principal ?? undefined) !== principal || record.owner === this.replicaId) return 'not-found';
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const id = randomUUID();
    const message: ForwardMessage = {
      t: 'req',
      id,
      from: this.replicaId,
      method: request.method,
      url: request.url,
      headers: headersToPass(request.headers),
      ...(body && body.byteLength > 0 && { body: toBase64(body) }),
      until: deadline,
    };
    await this.#subscribed;
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
      this.#redis.publish(this.#channel(record.owner), JSON.stringify(message)).then(
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

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    for (const id of [...this.#outgoing.keys()]) this.#end(id, 'unreachable', 'This replica is stopping.');
    for (const stop of this.#serving.values()) stop();
    await this.#redis.del(this.#aliveKey(this.replicaId)).catch(() => {});
    await this.#subscriber?.quit().catch(() => this.#subscriber?.disconnect());
  }

  async #lookUp(sessionId: string): Promise<SessionRecord | 'not-found' | 'gone'> {
    const raw = await this.#redis.get(this.#sessionKey(sessionId));
    const record = raw === null ? undefined : parseRecord(raw);
    if (!record) return 'not-found';
    if ((await this.#redis.exists(this.#aliveKey(record.owner))) === 0) {
      await this.#redis.del(this.#sessionKey(sessionId));
      return 'gone';
    }
    return record;
  }

  #receive(text: string): void {
    const message = parseForwardMessage(text);
    if (!message) return;
    switch (message.t) {
      case 'req':
        void this.#serve(message);
        return;
      case 'cancel':
        this.#serving.get(message.id)?.();
        return;
      case 'head': {
        const outgoing = this.#outgoing.get(message.id);
        if (!outgoing?.settle) return;
        clearTimeout(outgoing.timer);
        const settle = outgoing.settle;
        outgoing.settle = undefined;
        const headers = new Headers(message.headers as [string, string][]);
        outgoing.isEventStream = (headers.get('content-type') ?? '').includes('text/event-stream');
        if (!message.hasBody) {
          this.#outgoing.delete(message.id);
          settle(new Response(null, { status: message.status, headers }));
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
        settle(new Response(body, { status: message.status, headers }));
        return;
      }
      case 'data': {
        const outgoing = this.#outgoing.get(message.id);
        if (!outgoing?.stream) return;
        if (message.seq !== outgoing.nextSeq) {
          this.#end(message.id, 'unreachable', 'Part of the response was lost on the way.');
          return;
        }
        outgoing.nextSeq++;
        outgoing.stream.enqueue(fromBase64(message.chunk));
        return;
      }
      case 'end': {
        const outgoing = this.#outgoing.get(message.id);
        if (!outgoing?.stream) return;
        if (message.seq !== outgoing.nextSeq) {
          this.#end(message.id, 'unreachable', 'Part of the response was lost on the way.');
          return;
        }
        this.#outgoing.delete(message.id);
        outgoing.stream.close();
        return;
      }
      case 'fail':
        this.#end(message.id, 'unreachable', message.message);
        return;
    }
  }

  /** Serves a request another replica passed here, streaming the response back to it. */
  async #serve(message: Extract<ForwardMessage, { t: 'req' }>): Promise<void> {
    const host = this.#host;
    if (!host || this.#closed || Date.now() > message.until) return;
    const reply = (answer: ForwardMessage) =>
      this.#redis.publish(this.#channel(message.from), JSON.stringify(answer));
    const abort = new AbortController();
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    this.#serving.set(message.id, () => {
      abort.abort();
      void reader?.cancel().catch(() => {});
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
      await reply({
        t: 'head',
        id: message.id,
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
        await reply({ t: 'data', id: message.id, seq: seq++, chunk: toBase64(value) });
      }
      if (!abort.signal.aborted) await reply({ t: 'end', id: message.id, seq });
    } catch (error) {
      if (!abort.signal.aborted) {
        const text = error instanceof Error ? error.message : String(error);
        await reply({
          t: 'fail',
          id: message.id,
          message: `The replica holding this session failed: ${text}`,
        })
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
    if (owner === undefined) return;
    const message: ForwardMessage = { t: 'cancel', id };
    void this.#redis
      .publish(this.#channel(owner), JSON.stringify(message))
      .then(() => {})
      .catch(() => {});
  }

  /** Says this replica is alive, keeps its used sessions' records, ends what waits on stopped replicas. */
  async #beat(): Promise<void> {
    if (this.#closed) return;
    try {
      const batch = this.#redis.multi();
      batch.set(this.#aliveKey(this.replicaId), '1', 'PX', this.#heartbeatMs * 3);
      for (const id of this.#toRefresh) batch.pexpire(this.#sessionKey(id), this.#recordTtl());
      this.#toRefresh.clear();
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

  #resync(): void {
    for (const id of [...this.#outgoing.keys()])
      this.#end(id, 'unreachable', 'The connection to the other replicas was interrupted.');
    for (const stop of [...this.#serving.values()]) stop();
    const host = this.#host;
    if (!host || this.#closed) return;
    const batch = this.#redis.multi();
    for (const session of host.sessions()) {
      const record: SessionRecord = { ...session, owner: this.replicaId };
      batch.set(this.#sessionKey(session.id), JSON.stringify(record), 'PX', this.#recordTtl());
    }
    batch.set(this.#aliveKey(this.replicaId), '1', 'PX', this.#heartbeatMs * 3);
    void batch.exec().catch(() => {});
  }

  #recordTtl(): number {
    return (this.#host?.idleMs ?? 30 * 60_000) + this.#heartbeatMs * 3;
  }

  #sessionKey(id: string): string {
    return `${this.#prefix}s:${id}`;
  }

  #aliveKey(replica: string): string {
    return `${this.#prefix}alive:${replica}`;
  }

  #channel(replica: string): string {
    return `${this.#prefix}to:${replica}`;
  }
}

function parseRecord(raw: string): SessionRecord | undefined {
  try {
    const record = JSON.parse(raw) as Partial<SessionRecord>;
    return typeof record.id === 'string' && typeof record.owner === 'string'
      ? (record as SessionRecord)
      : undefined;
  } catch {
    return undefined;
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

/** `work`'s result, or `undefined` once `deadline` passed. */
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
