import { AsyncLocalStorage } from 'node:async_hooks';
import type { Client, ClientCapabilities, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import { asksOnlyOverHandshake, connectSdk, type SdkConnection } from '@parley/client/raw';
import { ToolError } from '@parley/server';
import { isHttpUpstream, type UpstreamConfig } from '../config/schema.js';
import type { LiveCalls } from '../held/live-calls.js';
import type { HostFacts, LiveListeners } from '../leg/host-facts.js';
import type { Step, UpstreamAnswer, Via } from '../leg/step.js';
import { type Catalog, EMPTY_CATALOG, fetchCatalog } from './catalog.js';
import { DirectLegs } from './direct-legs.js';
import { eraOptions, handshakeVersions, type Reach, reachOf } from './reach.js';
import { isUnreachable } from './reachability.js';
import { SessionPool } from './session-pool.js';
import { httpTransport } from './session-transport.js';
import { stepOf } from './step-of.js';
import { carryTaskResults } from './task-results.js';
import { UpstreamFetch } from './upstream-fetch.js';

/** The methods a host calls an upstream's tools, prompts and resources with. */
export type CallMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** One call as the upstream gets it: its own name or URI, its arguments. */
export interface UpstreamCall {
  readonly method: CallMethod;
  readonly params: Readonly<Record<string, unknown>>;
}

/** How one upstream is doing, for `gateway.status()`. */
export interface UpstreamStatus {
  readonly name: string;
  /** `connecting` (first attempt), `ready`, `down` (reconnecting with back-off) or `closed`. */
  readonly state: 'connecting' | 'ready' | 'down' | 'closed';
  readonly era?: 'modern' | 'handshake';
  readonly protocolVersion?: string;
  /** What the upstream says it is. */
  readonly server?: { readonly name: string; readonly version: string };
  readonly tools: number;
  readonly prompts: number;
  readonly resources: number;
  readonly templates: number;
  /** 2025-era sessions open for calls. */
  readonly sessions: number;
  /** Since when it is in this state (ISO 8601). */
  readonly since: string;
  /** Why it is down, in a sentence (never a credential: the gateway's own words). */
  readonly lastError?: string;
}

/** What an upstream tells the gateway about itself. */
export interface UpstreamEvents {
  /** Its lists changed (or it connected, or went down for good). */
  catalog(upstream: Upstream): void;
  /** A resource it serves changed (`notifications/resources/updated`). */
  resourceUpdated(upstream: Upstream, uri: string): void;
  /** Its state changed. */
  status(upstream: Upstream): void;
}

interface Dependencies {
  readonly liveCalls: LiveCalls;
  readonly events: UpstreamEvents;
  readonly log: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly fetch?: typeof fetch;
}

/** A result schema that takes any result as it came. */
const ANY_RESULT = {
  '~standard': { version: 1, vendor: 'parley-gateway', validate: (value: unknown) => ({ value }) },
};

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** 2025 sessions an HTTP upstream may have open for calls. */
const MAX_HTTP_SESSIONS = 1_000;
/** Processes a stdio upstream may run for 2025 sessions, unless configured. */
const DEFAULT_MAX_PROCESSES = 8;
const DEFAULT_TIMEOUT_MS = 60_000;
/** How often the gateway checks that a connected upstream is still there. */
const HEALTH_MS = 10_000;

/**
 * One configured upstream: its control connection (lists, completions, change notifications, and
 * every call when it speaks 2026-07-28), its 2025 sessions for calls (each declaring exactly what
 * its host declared), and its state. It reconnects with back-off when it cannot be reached or goes
 * away; meanwhile its tools answer with an error that says so.
 */
export class Upstream {
  readonly name: string;
  readonly config: UpstreamConfig;
  readonly #deps: Dependencies;
  readonly #reach: Reach;
  /** How an HTTP upstream is reached when no fetch of its own was given. */
  readonly #fetch: UpstreamFetch | undefined;
  #control: SdkConnection | undefined;
  /** Where the control connection carries a task result (see `carryTaskResults`). */
  #taskKey: string | undefined;
  #catalog: Catalog = EMPTY_CATALOG;
  /** The catalog's tools by name, as a call sends them along (without their output schema). */
  #callable = new Map<string, Tool>();
  #state: UpstreamStatus['state'] = 'connecting';
  #since = Date.now();
  #lastError: string | undefined;
  #retryMs = FIRST_RETRY_MS;
  #retryTimer: NodeJS.Timeout | undefined;
  #firstAttempt: Promise<void> | undefined;
  readonly #sessions: SessionPool;
  #health: NodeJS.Timeout | undefined;
  /** The resources hosts are subscribed to (see `watch`). */
  readonly #watched = new Set<string>();
  /** The control connection's listen stream (2026-07-28). */
  #stream: { close(): Promise<void> } | undefined;
  /** The host side of the 2026-07-28 leg whose response stream is being read. */
  readonly #legs = new AsyncLocalStorage<LiveListeners>();
  /** A 2026-07-28 HTTP upstream's legs sent without the SDK's client (see `directLeg`). */
  #direct: DirectLegs | undefined;

  constructor(name: string, config: UpstreamConfig, deps: Dependencies) {
    this.name = name;
    this.config = config;
    this.#deps = deps;
    this.#fetch = deps.fetch === undefined && isHttpUpstream(config) ? new UpstreamFetch() : undefined;
    this.#reach = reachOf(
      config,
      (line) => deps.log('debug', `${name} (stderr): ${JSON.stringify(line)}`),
      deps.fetch ?? this.#fetch,
    );
    this.#sessions = new SessionPool({
      upstream: name,
      reach: this.#reach,
      clientInfo: deps.clientInfo,
      protocolVersions: handshakeVersions(config.era),
      limit: 'command' in config ? (config.maxProcesses ?? DEFAULT_MAX_PROCESSES) : MAX_HTTP_SESSIONS,
      failure: (error) => this.#failure(error),
    });
  }

  /** Who people are told asks: the configured title, else what the upstream calls itself, else its name. */
  get title(): string {
    return this.config.title ?? this.#control?.server.title ?? this.#control?.server.name ?? this.name;
  }

  get catalog(): Catalog {
    return this.#catalog;
  }

  get capabilities(): ServerCapabilities | undefined {
    return this.#control?.sdk.getServerCapabilities();
  }

  /** The revision the control connection negotiated. */
  get protocolVersion(): string | undefined {
    return this.#control?.protocolVersion;
  }

  /** The era calls are made on: what the control connection negotiated. */
  get era(): 'modern' | 'handshake' | undefined {
    return this.#control?.era;
  }

  get status(): UpstreamStatus {
    const control = this.#control;
    return {
      name: this.name,
      state: this.#state,
      ...(control && { era: control.era, protocolVersion: control.protocolVersion }),
      ...(control && { server: { name: control.server.name, version: control.server.version } }),
      tools: this.#catalog.tools.length,
      prompts: this.#catalog.prompts.length,
      resources: this.#catalog.resources.length,
      templates: this.#catalog.templates.length,
      sessions: this.#sessions.size,
      since: new Date(this.#since).toISOString(),
      ...(this.#lastError !== undefined && { lastError: this.#lastError }),
    };
  }

  /** Connects; resolves after the first attempt, whether it worked or not (it goes on retrying). */
  start(): Promise<void> {
    this.#firstAttempt ??= this.#connect();
    return this.#firstAttempt;
  }

  async close(): Promise<void> {
    this.#setState('closed');
    clearTimeout(this.#retryTimer);
    clearInterval(this.#health);
    const control = this.#control;
    this.#control = undefined;
    await Promise.all([control?.sdk.close().catch(() => {}), this.#closeDirect(), this.#sessions.close()]);
    this.#fetch?.close();
  }

  /** Starts a call: its first leg, or its first step as a held 2025 call. */
  async begin(call: UpstreamCall, host: HostFacts): Promise<Step> {
    const control = this.#ready();
    if (control.era === 'handshake') return this.beginLive(call, host);
    let step: Step;
    try {
      step = await this.#leg(control.sdk, call, host, undefined, undefined);
    } catch (error) {
      if (this.fallsBack(error)) return this.beginLive(call, host);
      throw error;
    }
    if (this.fallsBack(step)) return this.beginLive(call, host);
    return step;
  }

  /** Whether 2026-07-28 legs of this upstream can go without the SDK's client (`directLeg`). */
  get direct(): boolean {
    return this.#direct !== undefined && this.#state === 'ready';
  }

  /**
   * One 2026-07-28 leg sent straight on the gateway's transport (a relayed round of a 2026-07-28
   * host: see `directRelay`), with what `#leg` sends, read into the same step. It fails as `#leg`
   * does (`ToolError`, or the upstream's own JSON-RPC error as a `ProtocolError`).
   */
  async directLeg(
    call: UpstreamCall,
    host: HostFacts,
    state: string | undefined,
    answers: Readonly<Record<string, UpstreamAnswer>> | undefined,
  ): Promise<Step> {
    const legs = this.#direct;
    if (legs === undefined || this.#state !== 'ready') this.#ready();
    const params = legParams(call, host, state, answers);
    const meta = params._meta as Record<string, unknown>;
    meta[PROTOCOL_VERSION_META_KEY] = this.#control?.protocolVersion;
    meta[CLIENT_INFO_META_KEY] = this.#deps.clientInfo;
    const result = await legs!
      .send(call.method, params, {
        signal: host.signal,
        timeoutMs: this.#timeoutMs,
        listeners: host.listeners,
        progress: host.progress === true,
        logs: host.logLevel !== undefined,
      })
      .catch((error: unknown) => {
        throw this.#failure(error);
      });
    return stepOf(result, this.name, this.#taskKey);
  }

  /** The next leg of a call: its answers (or none, after a `wait`) sent on where the last step came from. */
  resume(
    call: UpstreamCall,
    via: Via,
    answers: Readonly<Record<string, UpstreamAnswer>> | undefined,
    host: HostFacts,
  ): Promise<Step> {
    if (via.kind === 'live')
      return this.#deps.liveCalls
        .resume(
          { handle: via.handle, owner: host.owner, round: via.round, answers, holdMs: host.holdMs },
          host.listeners,
        )
        .catch((error: unknown) => {
          throw this.#failure(error);
        });
    return this.#leg(this.#ready().sdk, call, host, via.state, answers);
  }

  /** A request about one of the upstream's tasks, declaring what the host declared (its extensions). */
  async taskRequest(
    method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
    params: Record<string, unknown>,
    capabilities: ClientCapabilities,
  ): Promise<Record<string, unknown>> {
    const sdk = this.#ready().sdk;
    const result = await sdk
      // With a result schema of its own: the SDK sends the extension's methods only so (and
      // tasks/update, which it does not know, at all); the gateway reads the result itself.
      .request(
        { method, params: { ...params, _meta: { [CLIENT_CAPABILITIES_META_KEY]: capabilities } } } as never,
        ANY_RESULT as never,
        { timeout: this.#timeoutMs },
      )
      .catch((error: unknown) => {
        throw this.#failure(error);
      });
    return (result ?? {}) as Record<string, unknown>;
  }

  /** A request on the control connection: completions, subscriptions. */
  request(method: string, params: Record<string, unknown>): Promise<unknown> {
    return this.#ready().sdk.request({ method, params } as never, { timeout: this.#timeoutMs });
  }

  get #timeoutMs(): number {
    return this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  #ready(): SdkConnection {
    const control = this.#control;
    if (control !== undefined && this.#state === 'ready') return control;
    const why = this.#lastError === undefined ? '' : ` (${this.#lastError})`;
    throw new ToolError(
      this.#state === 'closed'
        ? `The gateway is stopping; ${this.name} takes no more calls.`
        : `The upstream ${this.name} is not reachable now${why}; the gateway keeps trying to reconnect, so call again shortly.`,
    );
  }

  /**
   * Under era `auto`, whether a first leg's failure (or error result) says the tool can ask only
   * over the 2025 handshake: it is then called again on a 2025 session (`beginLive`).
   */
  fallsBack(outcome: unknown): boolean {
    if ((this.config.era ?? 'auto') !== 'auto') return false;
    if (outcome instanceof ProtocolError) return asksOnlyOverHandshake(outcome.message);
    const step = outcome as Step;
    if (step?.kind !== 'result' || step.result.isError !== true) return false;
    const content = Array.isArray(step.result.content) ? step.result.content : [];
    const text = content
      .map((block) =>
        typeof block === 'object' && block !== null && 'text' in block ? String(block.text) : '',
      )
      .join('\n');
    return asksOnlyOverHandshake(text);
  }

  /** One 2026-07-28 leg: this request's capabilities, the answers, the state echoed byte for byte. */
  async #leg(
    sdk: Client,
    call: UpstreamCall,
    host: HostFacts,
    state: string | undefined,
    answers: Readonly<Record<string, UpstreamAnswer>> | undefined,
  ): Promise<Step> {
    const params = legParams(call, host, state, answers);
    const options = {
      signal: host.signal,
      timeout: this.#timeoutMs,
      resetTimeoutOnProgress: true,
      allowInputRequired: true,
      onprogress: (progress: { progress: number; total?: number; message?: string }) =>
        host.listeners.progress?.(progress),
    };
    // A tool call goes with its listing, so the parameters it marks x-mcp-header travel as
    // Mcp-Param-* headers too (SEP-2243); without its outputSchema: a round that asks carries none.
    const tool =
      call.method === 'tools/call' && typeof call.params.name === 'string'
        ? this.#callable.get(call.params.name)
        : undefined;
    const send = () =>
      tool === undefined
        ? sdk.request({ method: call.method, params } as never, options as never)
        : sdk.callTool(params as never, { ...options, toolDefinition: tool } as never);
    // Sent in the leg's scope: logs the upstream sends on its response stream reach this run's host.
    const result = await this.#legs.run(host.listeners, send).catch((error: unknown) => {
      throw this.#failure(error);
    });
    return stepOf(result, this.name, this.#taskKey);
  }

  /** A call on a 2025 session of the caller's, held open in the gateway while it asks. */
  async beginLive(call: UpstreamCall, host: HostFacts): Promise<Step> {
    const live = await this.#sessions.start(host.sessionKey, host.capabilities, call.method, {
      ...call.params,
      ...(Object.keys(host.meta).length > 0 && { _meta: host.meta }),
    });
    const handle = this.#deps.liveCalls.park(live, host.owner, this.name);
    // The host may give up before the upstream asks anything: the upstream call is cancelled then.
    const cancelled = () => this.#deps.liveCalls.drop(handle, 'the host cancelled the call', host.owner);
    host.signal.addEventListener('abort', cancelled, { once: true });
    return this.#deps.liveCalls
      .resume(
        { handle, owner: host.owner, round: 0, answers: undefined, holdMs: host.holdMs },
        host.listeners,
      )
      .catch((error: unknown) => {
        throw this.#failure(error);
      })
      .finally(() => host.signal.removeEventListener('abort', cancelled));
  }

  /** What a failed leg tells the host: the upstream's own JSON-RPC error, or what went wrong reaching it. */
  #failure(error: unknown): unknown {
    if (error instanceof ProtocolError || error instanceof ToolError) return error;
    if (isUnreachable(error) && this.#control !== undefined)
      this.#lost(this.#control, oneLine(error instanceof Error ? error.message : String(error)));
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
      return new ToolError(`The upstream ${this.name} did not answer in time; try again.`);
    const message = error instanceof Error ? error.message : String(error);
    this.#deps.log('warn', `${this.name}: a call failed: ${message}`);
    return new ToolError(`The call to the upstream ${this.name} failed (${oneLine(message)}); try again.`);
  }

  async #connect(): Promise<void> {
    try {
      const { target, options, request } = this.#reach;
      const control = await connectSdk(target, {
        ...options,
        // Over HTTP, the gateway's own transport: a relayed 2026-07-28 round is one node:http request.
        ...(typeof target === 'string' && {
          transport: httpTransport(target, { ...options, ...(request !== undefined && { request }) }),
        }),
        ...eraOptions(this.config.era),
        clientInfo: this.#deps.clientInfo,
        capabilities: {},
        prepare: (sdk) => this.#watch(sdk),
      });
      this.#control = control;
      if (control.era === 'modern') this.#taskKey = carryTaskResults(control.transport);
      if (control.era === 'modern' && typeof target === 'string') {
        const legs = new DirectLegs(
          httpTransport(target, { ...options, ...(request !== undefined && { request }) }),
        );
        await legs.start();
        this.#direct = legs;
      }
      control.sdk.onclose = () => this.#lost(control, 'the connection closed');
      this.#setCatalog(await fetchCatalog(control.sdk, control.sdk.getServerCapabilities(), this.#timeoutMs));
      if (control.era === 'modern') await this.#listen(control.sdk);
      this.#retryMs = FIRST_RETRY_MS;
      this.#lastError = undefined;
      this.#watchHealth(control);
      this.#setState('ready');
      // A 2025 session subscribes one resource at a time (the listen stream above names them all).
      if (control.era === 'handshake') for (const uri of this.#watched) void this.watch(uri, true);
      this.#deps.log(
        'info',
        `${this.name}: connected (${control.protocolVersion}, ${this.#catalog.tools.length} tools)`,
      );
      this.#deps.events.catalog(this);
    } catch (error) {
      const control = this.#control;
      this.#control = undefined;
      await Promise.all([control?.sdk.close().catch(() => {}), this.#closeDirect()]);
      this.#down(error instanceof Error ? error.message : String(error));
    }
  }

  /** Asks now and then whether the upstream is still there (a stateless one never says it left). */
  #watchHealth(control: SdkConnection): void {
    clearInterval(this.#health);
    this.#health = setInterval(() => {
      const check =
        control.era === 'modern'
          ? control.sdk.discover({ timeout: this.#timeoutMs })
          : control.sdk.ping({ timeout: this.#timeoutMs });
      check.catch((error: unknown) => {
        if (isUnreachable(error) || (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout))
          this.#lost(control, oneLine(error instanceof Error ? error.message : String(error)));
      });
    }, HEALTH_MS);
    this.#health.unref();
  }

  /** The change notifications of the control connection, and the logs of 2026-07-28 legs. */
  #watch(sdk: Client): void {
    sdk.setNotificationHandler('notifications/message', (notification) => {
      this.#legs.getStore()?.log?.(notification.params as never);
    });
    const refresh = () => void this.#refresh();
    sdk.setNotificationHandler('notifications/tools/list_changed', refresh);
    sdk.setNotificationHandler('notifications/prompts/list_changed', refresh);
    sdk.setNotificationHandler('notifications/resources/list_changed', refresh);
    sdk.setNotificationHandler('notifications/resources/updated', (notification) => {
      const uri = notification.params?.uri;
      if (typeof uri === 'string') this.#deps.events.resourceUpdated(this, uri);
    });
  }

  /**
   * 2026-07-28: list changes and resource updates come on a `subscriptions/listen` stream, whose
   * filter names the resources hosts subscribed to; it is opened again when that set changes.
   */
  async #listen(sdk: Client): Promise<void> {
    const capabilities = sdk.getServerCapabilities();
    const watched = capabilities?.resources?.subscribe ? [...this.#watched] : [];
    const filter = {
      ...(capabilities?.tools?.listChanged && { toolsListChanged: true }),
      ...(capabilities?.prompts?.listChanged && { promptsListChanged: true }),
      ...(capabilities?.resources?.listChanged && { resourcesListChanged: true }),
      ...(watched.length > 0 && { resourceSubscriptions: watched }),
    };
    const previous = this.#stream;
    this.#stream = undefined;
    await previous?.close().catch(() => {});
    if (Object.keys(filter).length === 0) return;
    try {
      this.#stream = await sdk.listen(filter, { timeout: this.#timeoutMs });
    } catch (error) {
      this.#deps.log(
        'info',
        `${this.name}: no list-change stream (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }

  /**
   * Follows a resource for the hosts subscribed to it (`watched`), or stops: a 2025 upstream is
   * sent `resources/subscribe` (or `unsubscribe`) on the control session; a 2026-07-28 one gets a
   * new listen stream naming it.
   */
  async watch(uri: string, watched: boolean): Promise<void> {
    if (watched) this.#watched.add(uri);
    else this.#watched.delete(uri);
    const control = this.#control;
    if (
      control === undefined ||
      this.#state !== 'ready' ||
      !control.sdk.getServerCapabilities()?.resources?.subscribe
    )
      return;
    try {
      if (control.era === 'modern') await this.#listen(control.sdk);
      else
        await control.sdk.request(
          { method: watched ? 'resources/subscribe' : 'resources/unsubscribe', params: { uri } } as never,
          { timeout: this.#timeoutMs },
        );
    } catch (error) {
      this.#deps.log(
        'warn',
        `${this.name}: could not ${watched ? 'subscribe to' : 'unsubscribe from'} ${JSON.stringify(uri)} (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }

  async #refresh(): Promise<void> {
    const control = this.#control;
    if (control === undefined) return;
    try {
      this.#setCatalog(await fetchCatalog(control.sdk, control.sdk.getServerCapabilities(), this.#timeoutMs));
      this.#deps.events.catalog(this);
    } catch (error) {
      this.#deps.log(
        'warn',
        `${this.name}: could not list again after a change (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }

  #setCatalog(catalog: Catalog): void {
    this.#catalog = catalog;
    this.#callable = new Map(catalog.tools.map((tool) => [tool.name, withoutOutputSchema(tool)]));
  }

  #lost(control: SdkConnection, why: string): void {
    if (this.#control !== control || this.#state === 'closed') return;
    this.#control = undefined;
    clearInterval(this.#health);
    void control.sdk.close().catch(() => {});
    void this.#closeDirect();
    // Its 2025 sessions went with it: their held calls end now, with an error, not at their timeout.
    void this.#sessions.closeAll();
    this.#down(why);
  }

  #down(why: string): void {
    if (this.#state === 'closed') return;
    this.#lastError = oneLine(why);
    // Told once when it goes down; each further attempt only at info.
    const level = this.#state === 'down' ? 'info' : 'warn';
    this.#setState('down');
    this.#deps.log(
      level,
      `${this.name}: unreachable (${this.#lastError}); retrying in ${this.#retryMs / 1000} s`,
    );
    this.#retryTimer = setTimeout(() => void this.#connect(), this.#retryMs);
    this.#retryTimer.unref();
    this.#retryMs = Math.min(this.#retryMs * 2, MAX_RETRY_MS);
  }

  #closeDirect(): Promise<void> {
    const legs = this.#direct;
    this.#direct = undefined;
    return legs?.close().catch(() => {}) ?? Promise.resolve();
  }

  #setState(state: UpstreamStatus['state']): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#since = Date.now();
    this.#deps.events.status(this);
  }
}

/** A 2026-07-28 leg's params: the host's capabilities for this request, its answers, the state echoed byte for byte. */
function legParams(
  call: UpstreamCall,
  host: HostFacts,
  state: string | undefined,
  answers: Readonly<Record<string, UpstreamAnswer>> | undefined,
): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    ...host.meta,
    [CLIENT_CAPABILITIES_META_KEY]: host.capabilities,
    ...(host.logLevel !== undefined && { [LOG_LEVEL_META_KEY]: host.logLevel }),
  };
  const params: Record<string, unknown> = { ...call.params, _meta: meta };
  if (answers !== undefined)
    params.inputResponses = Object.fromEntries(
      Object.entries(answers).map(([key, answer]) => [
        key,
        'result' in answer ? answer.result : { action: 'cancel' },
      ]),
    );
  if (state !== undefined) params.requestState = state;
  return params;
}

function withoutOutputSchema(tool: Tool): Tool {
  const { outputSchema: _notCheckedHere, ...definition } = tool;
  return definition as Tool;
}

/** A message on one line, cut to a sane length (it is shown to hosts and logged). */
function oneLine(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
