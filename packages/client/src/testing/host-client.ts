import {
  type CallToolResult,
  Client,
  type ClientContext,
  type GetPromptResult,
  type JSONRPCRequest,
  ProtocolError,
  type ReadResourceResult,
  type Result,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { isRecord, PARLEY_KEY_META } from '@parley/core';
import type { HostProfile } from '@parley/core/hosts';
import { inspectUrl } from '@parley/core/url';
import type { Call } from '../call-handle.js';
import type { CallMethod } from '../events.js';
import type { ParleyClient } from '../parley-client.js';
import type { scripted } from '../scripted.js';
import type { AskContext, CallInfo, ElicitResult, Era, ServerIdentity } from '../types.js';
import { type HostQuestion, type HostReply, hostAnswersForm, hostAnswersUrl } from './host-emulator.js';
import { IN_PROCESS_URL, type InProcessEndpoint, inProcessFetch } from './in-process.js';

type Person = ReturnType<typeof scripted>;

/** The SDK's client with none of its own checks on `elicitation/create`: the host's emulator answers as the host would, `null`s and all. */
class RawElicitationClient extends Client {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result> {
    return method === 'elicitation/create' ? handler : super._wrapHandler(method, handler);
  }

  /** A host that declares no elicitation still gets to see (and refuse, and report) a question sent anyway. */
  protected override assertRequestHandlerCapability(method: string): void {
    if (method !== 'elicitation/create') super.assertRequestHandlerCapability(method);
  }
}

/** A pass-through params schema: the emulator reads the request as it came. */
const ANY_PARAMS = {
  '~standard': { version: 1 as const, vendor: 'parley', validate: (value: unknown) => ({ value }) },
};

/**
 * A client that is one real host, as its profile describes it: its `clientInfo`, protocol revision
 * and capabilities sent byte for byte, and its forms shown, refused and answered the way that host
 * does. Built by `testClient(server, { host })`.
 */
export class EmulatedHost implements ParleyClient {
  readonly profile: HostProfile;
  /** Every question the host was sent, what it could not show, and what it answered. */
  readonly questions: HostQuestion[] = [];
  readonly #sdk: RawElicitationClient;
  readonly #person: Person;
  readonly #endpoint: InProcessEndpoint;
  readonly #era: Era;
  #callId = 0;
  #current: { id: number; info: CallInfo; round: number } = {
    id: 0,
    info: { kind: 'tool', name: '' },
    round: 0,
  };

  private constructor(
    profile: HostProfile,
    sdk: RawElicitationClient,
    person: Person,
    endpoint: InProcessEndpoint,
    era: Era,
  ) {
    this.profile = profile;
    this.#sdk = sdk;
    this.#person = person;
    this.#endpoint = endpoint;
    this.#era = era;
  }

  /** Connects `profile`'s host to the endpoint, on its own protocol revision (`handshake`) or on 2026-07-28. */
  static async connect(
    profile: HostProfile,
    endpoint: InProcessEndpoint,
    person: Person,
    era: Era,
  ): Promise<EmulatedHost> {
    const wire = profile.wire.value;
    const sdk = new RawElicitationClient(
      { ...wire.clientInfo },
      {
        capabilities: structuredClone(wire.capabilities) as never,
        ...(era === 'modern'
          ? {
              versionNegotiation: { mode: { pin: '2026-07-28' } },
              inputRequired: { autoFulfill: true, maxRounds: 20 },
            }
          : { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [wire.protocolVersion] }),
      },
    );
    const host = new EmulatedHost(profile, sdk, person, endpoint, era);
    sdk.setRequestHandler('elicitation/create', { params: ANY_PARAMS }, (params, ctx) =>
      host.#elicit(params, ctx),
    );
    if (isRecord(wire.capabilities.roots)) sdk.setRequestHandler('roots/list', async () => ({ roots: [] }));
    if (isRecord(wire.capabilities.sampling))
      sdk.setRequestHandler('sampling/createMessage', async () => {
        throw new ProtocolError(-1, 'User rejected sampling request');
      });
    const transport = new StreamableHTTPClientTransport(IN_PROCESS_URL, { fetch: inProcessFetch(endpoint) });
    await sdk.connect(transport);
    return host;
  }

  async #elicit(params: unknown, ctx: ClientContext): Promise<Result> {
    const request = isRecord(params) ? params : {};
    const meta = isRecord(request._meta) ? request._meta : {};
    const key =
      typeof meta[PARLEY_KEY_META] === 'string'
        ? meta[PARLEY_KEY_META]
        : this.#era === 'modern'
          ? String(ctx.mcpReq.id)
          : undefined;
    const message = typeof request.message === 'string' ? request.message : '';
    const context = this.#context(key, ctx.mcpReq.signal);
    let asked: HostQuestion;
    if (request.mode === 'url') {
      const url = typeof request.url === 'string' ? request.url : '';
      const answer = await hostAnswersUrl(this.profile, () =>
        this.#person.url({ message, url }, inspectUrl(url), context),
      );
      asked = { mode: 'url', message, url, ...(key !== undefined && { key }), ...answer };
    } else {
      const answer = await hostAnswersForm(
        this.profile,
        request,
        (requestedSchema) =>
          this.#person.form(
            { message, requestedSchema: requestedSchema as never },
            context,
          ) as Promise<ElicitResult>,
      );
      asked = { mode: 'form', message, ...(key !== undefined && { key }), ...answer };
    }
    this.questions.push(asked);
    return replied(asked.reply);
  }

  #context(key: string | undefined, signal: AbortSignal): AskContext {
    const call = this.#current;
    call.round++;
    return {
      server: this.server,
      call: call.info,
      callId: call.id,
      round: call.round,
      ...(key !== undefined && { key }),
      position: { index: 1, of: 1 },
      era: this.#era,
      signal,
    };
  }

  get server(): ServerIdentity {
    const info = this.#sdk.getServerVersion();
    return {
      name: info?.name ?? '',
      version: info?.version ?? '',
      ...(info?.title !== undefined && { title: info.title }),
    };
  }
  get era(): Era {
    return this.#era;
  }
  get protocolVersion(): string {
    return this.#sdk.getNegotiatedProtocolVersion() ?? '';
  }
  get eraNotice(): undefined {
    return undefined;
  }
  get capabilities() {
    return this.#sdk.getServerCapabilities() ?? {};
  }
  get instructions(): string | undefined {
    return this.#sdk.getInstructions();
  }
  async listTools() {
    return (await this.#sdk.listTools()).tools;
  }
  async listPrompts() {
    return (await this.#sdk.listPrompts()).prompts;
  }
  async listResources() {
    return (await this.#sdk.listResources()).resources;
  }
  async listResourceTemplates() {
    return (await this.#sdk.listResourceTemplates()).resourceTemplates;
  }

  callTool(name: string, args?: Record<string, unknown>): Call<CallToolResult> {
    const info: CallInfo = { kind: 'tool', name, ...(args !== undefined && { arguments: args }) };
    return this.#start(
      info,
      'tools/call',
      () =>
        this.#sdk.callTool(
          { name, arguments: args ?? {} },
          { timeout: this.#timeoutMs() },
        ) as Promise<CallToolResult>,
    );
  }

  getPrompt(name: string, args?: Record<string, string>): Call<GetPromptResult> {
    const info: CallInfo = { kind: 'prompt', name, ...(args !== undefined && { arguments: args }) };
    return this.#start(info, 'prompts/get', () =>
      this.#sdk.getPrompt(
        { name, ...(args !== undefined && { arguments: args }) },
        { timeout: this.#timeoutMs() },
      ),
    );
  }

  readResource(uri: string): Call<ReadResourceResult> {
    return this.#start({ kind: 'resource', name: uri }, 'resources/read', () =>
      this.#sdk.readResource({ uri }, { timeout: this.#timeoutMs() }),
    );
  }

  /** How long the host waits for a call: its profile's limit when it gives up on the call, else long. */
  #timeoutMs(): number {
    const wait = this.profile.wait?.value;
    return wait?.kind === 'limit' && wait.from === 'call' ? wait.limitMs : 30 * 60_000;
  }

  #start<T>(info: CallInfo, method: CallMethod, run: () => Promise<T>): Call<T> {
    const id = ++this.#callId;
    this.#current = { id, info, round: 0 };
    return Object.assign(run(), { id, call: info, method, onEvent: () => () => {} });
  }

  async close(): Promise<void> {
    try {
      await this.#sdk.close();
    } finally {
      await this.#endpoint.close();
    }
  }
}

/** The emulated host's reply as the SDK sends it: a result, or the JSON-RPC error it answers with. */
function replied(reply: HostReply): Result {
  if ('error' in reply) throw new ProtocolError(reply.error.code, reply.error.message);
  return reply.result as Result;
}
