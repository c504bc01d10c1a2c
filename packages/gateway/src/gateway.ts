import { createRequire } from 'node:module';
import type { FetchLike } from '@modelcontextprotocol/client';
import {
  createServer,
  type Listening,
  type ListenOptions,
  type Logger,
  type ParleyServer,
  type ServerOptions,
  type StdioOptions,
  stderrLogger,
} from '@parley/server';
import { jwtVerifier, protectedResource } from '@parley/server/oauth';
import type { AuditSink } from './audit.js';
import { GatewayConfigError, readGatewayConfig } from './config/read-config.js';
import type { GatewayConfig } from './config/schema.js';
import { type LiveCallRouter, LiveCalls } from './held/live-calls.js';
import { Mounts } from './mount/mounts.js';
import { directRelay } from './relay/direct-relay.js';
import { Handovers } from './relay/handovers.js';
import type { RelaySettings } from './relay/relay-call.js';
import { Upstream, type UpstreamStatus } from './upstream/upstream.js';

const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** How long a 2026-07-28 host's request waits on an upstream with nothing new before it is told to come back. */
const HOLD_MS = 25_000;
/** The most a gateway's sealed `requestState` may hold: it carries the upstream's own state and questions. */
const STATE_MAX_CHARS = 256 * 1024;

/** What `createGateway` takes besides the configuration: what a JSON file cannot say. */
export interface GatewayOptions {
  /** Where the gateway reports warnings, errors and (at `info`) its audit events. Default: stderr. */
  readonly log?: Logger;
  /** Where each question that crosses goes (never its answers). Default: an `info` line in the log. */
  readonly onAudit?: AuditSink;
  /**
   * A fetch per upstream, by name: e.g. an interactive OAuth session of `@parley/client/oauth`.
   * Without one, an HTTP upstream's MCP requests go out on `node:http(s)` with a keep-alive agent.
   */
  readonly fetch?: Readonly<Record<string, FetchLike>>;
  /** Passes resumes of held calls to the replica that holds them (`@parley/gateway/redis`), for a fleet. */
  readonly router?: LiveCallRouter;
  /**
   * Options for the gateway's own Parley server (state keys, question pages' `person` hook and
   * store, sessions router...), on top of what the configuration sets.
   */
  readonly server?: Partial<ServerOptions>;
}

/** What the gateway is doing: each upstream's state, and the calls it holds. */
export interface GatewayStatus {
  readonly upstreams: readonly UpstreamStatus[];
  /** Upstream calls held open while their hosts answer questions. */
  readonly heldCalls: number;
  /** Questions sent to 2025-era hosts and not answered yet. */
  readonly pendingQuestions: number;
}

/**
 * An MCP gateway: one endpoint for hosts of either era in front of every configured upstream (any
 * server, either era), passing on tools, prompts, resources and their questions. Built on Parley:
 * the host side is a Parley server (both eras, sealed state, question pages, OAuth), the upstream
 * side the official SDK's client connected by `@parley/client`.
 */
export class Gateway {
  /** The Parley server hosts talk to. */
  readonly server: ParleyServer;
  readonly config: GatewayConfig;
  readonly #upstreams: Map<string, Upstream>;
  readonly #mounts: Mounts;
  readonly #liveCalls: LiveCalls;
  readonly #log: Logger;
  readonly #router: LiveCallRouter | undefined;
  #started: Promise<void> | undefined;
  #mounted = false;

  constructor(config: GatewayConfig, options: GatewayOptions = {}) {
    if (config.fleet !== undefined && options.router === undefined)
      throw new GatewayConfigError('The gateway', [
        'fleet: a replica of a fleet needs its shared parts on Redis: const fleet = await openGatewayFleet(config.fleet) from "@parley/gateway/redis", then createGateway(config, fleet.options) (parley gateway does this by itself)',
      ]);
    this.config = config;
    this.#log = options.log ?? stderrLogger;
    const pagesTtl = config.pages?.ttlSeconds ?? 900;
    const maxRounds = config.maxRounds ?? 20;
    this.server = createServer({
      name: config.name ?? 'parley-gateway',
      version: VERSION,
      ...(config.title !== undefined && { title: config.title }),
      maxRounds,
      log: this.#log,
      declare: ['tools', 'prompts', 'resources', 'completions'],
      ...options.server,
      state: {
        maxChars: STATE_MAX_CHARS,
        ...(config.fleet !== undefined && { keys: config.fleet.stateKeys }),
        ...options.server?.state,
      },
      questionPages:
        options.server?.questionPages === false
          ? false
          : {
              ttlSeconds: pagesTtl,
              ...(config.pages?.publicUrl !== undefined && { publicUrl: config.pages.publicUrl }),
              ...(config.pages?.anonymousByAddress === true && { anonymousByAddress: true }),
              ...options.server?.questionPages,
            },
    });
    this.#router = options.router;
    this.#liveCalls = new LiveCalls(
      { ttlMs: pagesTtl * 1000, perUser: 50, anonymous: 1_000 },
      options.router,
    );
    const settings: RelaySettings = {
      liveCalls: this.#liveCalls,
      audit: options.onAudit ?? ((event) => this.#log('info', `audit ${JSON.stringify(event)}`)),
      pages: options.server?.questionPages !== false,
      urls: config.urls ?? 'warn',
      holdMs: HOLD_MS,
      maxLegs: maxRounds * 4,
      maxRounds,
      handovers: new Handovers(),
    };
    const names = Object.keys(config.upstreams);
    this.#mounts = new Mounts(this.server, settings, names.length > 1, (level, message) =>
      this.#log(level, message),
    );
    this.server.directToolCalls(directRelay(settings, (name) => this.#mounts.toolOf(name)));
    const log = (level: 'debug' | 'info' | 'warn' | 'error', message: string) =>
      this.#log(level === 'debug' ? 'info' : level, message);
    // A host subscribing to a resource makes the gateway subscribe to it where it comes from.
    this.server.onSubscriptions((uri, watched) => {
      const owner = this.#mounts.ownerOf(uri);
      if (owner !== undefined) void this.#upstreams.get(owner)?.watch(uri, watched);
    });
    this.#upstreams = new Map(
      names.map((name) => [
        name,
        new Upstream(name, config.upstreams[name]!, {
          liveCalls: this.#liveCalls,
          log,
          clientInfo: { name: config.name ?? 'parley-gateway', version: VERSION },
          ...(options.fetch?.[name] !== undefined && { fetch: options.fetch[name] as typeof fetch }),
          events: {
            catalog: (upstream) => this.#synced(upstream),
            resourceUpdated: (_upstream, uri) => this.server.notifyResourceUpdated(uri),
            status: (upstream) => log('info', `${upstream.name}: ${upstream.status.state}`),
          },
        }),
      ]),
    );
  }

  /**
   * Connects to every upstream and lists what each offers. Resolves once each one answered or
   * failed its first attempt (a down upstream is retried with back-off, its tools added when it
   * comes). Rejects, and stops, when two upstreams offer the same resource (or a name twice).
   */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  /** Serves hosts over Streamable HTTP (both eras), as an OAuth protected resource when configured. */
  async listen(options: ListenOptions = {}): Promise<Listening> {
    await this.start();
    const auth = this.config.auth;
    const protection =
      auth === undefined
        ? {}
        : protectedResource({
            authorizationServers: [auth.issuer],
            verify: jwtVerifier({ issuer: auth.issuer }),
            ...(auth.resource !== undefined && { resource: auth.resource }),
            ...(auth.scopes !== undefined && {
              requiredScopes: { all: auth.scopes },
              scopesSupported: auth.scopes,
            }),
          });
    return this.server.listen({ ...protection, ...options });
  }

  /** Serves one host over stdio (a host that spawns the gateway). */
  async stdio(options?: StdioOptions): Promise<void> {
    await this.start();
    this.server.stdio(options);
  }

  status(): GatewayStatus {
    return {
      upstreams: [...this.#upstreams.values()].map((upstream) => upstream.status),
      heldCalls: this.#liveCalls.size,
      pendingQuestions: this.server.pendingQuestions,
    };
  }

  /** Cancels the calls it holds and closes every upstream connection (it does not stop a listener). */
  async close(): Promise<void> {
    await this.#liveCalls.close();
    await Promise.all([...this.#upstreams.values()].map((upstream) => upstream.close()));
  }

  async #start(): Promise<void> {
    await Promise.all([
      ...[...this.#upstreams.values()].map((upstream) => upstream.start()),
      this.#router?.ready?.(),
    ]);
    const collisions = [...this.#upstreams.values()].flatMap((upstream) => this.#mounts.sync(upstream));
    this.#mounted = true;
    if (collisions.length > 0) {
      await this.close();
      throw new GatewayConfigError(
        'The gateway',
        collisions.map(
          (collision) => `${collision}: give one of the upstreams another name, or leave one of them out`,
        ),
      );
    }
  }

  #synced(upstream: Upstream): void {
    if (!this.#mounted) return;
    for (const collision of this.#mounts.sync(upstream)) this.#log('warn', `Not passed on: ${collision}.`);
  }
}

/**
 * Makes a gateway from a configuration (an object as `gateway.json` holds it, checked here, or
 * one checked already by `readGatewayConfig`). Call `listen()` or `stdio()` to serve hosts.
 *
 * @example
 * const gateway = createGateway({ upstreams: { returns: { url: 'http://127.0.0.1:3000/mcp' } } });
 * const listening = await gateway.listen({ port: 4000 });
 * console.log(`Gateway: ${listening.url}`);
 */
export function createGateway(config: GatewayConfig | unknown, options?: GatewayOptions): Gateway {
  return new Gateway(readGatewayConfig(config), options);
}
