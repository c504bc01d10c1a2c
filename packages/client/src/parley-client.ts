import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
  Tool,
  Transport,
} from '@modelcontextprotocol/client';
import type { Call } from './call-handle.js';
import type { CallState } from './call-state.js';
import type { Connection } from './connection.js';
import { ParleyError } from './errors.js';
import type { CallEvent, CallMethod } from './events.js';
import { runHandshakeCall } from './handshake-call.js';
import { runModernCall } from './modern-call.js';
import { stopReason } from './send-leg.js';
import { rememberTools } from './tool-call-request.js';
import { translateError } from './translate-error.js';
import type { CallInfo, Era, ServerIdentity } from './types.js';

/** Options for one call. */
export interface CallOptions {
  /** Aborting it cancels the call: the request in flight is cancelled and open questions close. */
  signal?: AbortSignal;
}

/**
 * A connection to one MCP server. Calls drive every elicitation round to the end and put each
 * question in front of the person through the host's `ElicitationUI`.
 *
 * @example
 * import { terminalUI } from '@parley/client/terminal';
 *
 * const client = await connect('node server.js', { ui: terminalUI() });
 * const tools = await client.listTools();
 * const result = await client.callTool(tools[0]!.name, {}, { signal: AbortSignal.timeout(300_000) });
 * const call = client.callTool('book_pickup', { boxes: 2 }); // the same promise, with a handle:
 * call.onEvent((event) => console.error(`call ${call.id}: ${event.type}`));
 * await call;
 * await client.close();
 */
export interface ParleyClient {
  /** Who the server says it is (its target when it does not say). */
  readonly server: ServerIdentity;
  readonly era: Era;
  readonly protocolVersion: string;
  /**
   * Set when the era was chosen for a reason worth telling the person: today, a stdio server that
   * stayed silent on the 2026-07-28 discover probe and was connected with the 2025 handshake.
   */
  readonly eraNotice: string | undefined;
  /** What the server offers (tools, prompts, resources...), as it declared. */
  readonly capabilities: ServerCapabilities;
  /** The server's usage guide for models, when it gave one. */
  readonly instructions: string | undefined;
  /** Every tool, all pages walked. Empty when the server offers no tools. */
  listTools(): Promise<Tool[]>;
  listPrompts(): Promise<Prompt[]>;
  listResources(): Promise<Resource[]>;
  listResourceTemplates(): Promise<ResourceTemplateType[]>;
  /**
   * Calls a tool and answers every question it asks on the way. A tool that fails still returns
   * its result (`isError: true`); protocol and connection failures reject with `ParleyError`. The
   * returned `Call` is that promise, with the call's `id` and `onEvent` on it.
   */
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Call<CallToolResult>;
  /** Gets a prompt, answering its questions on the way; a `Call` like `callTool`'s. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Call<GetPromptResult>;
  /** Reads a resource, answering its questions on the way; a `Call` like `callTool`'s. */
  readResource(uri: string, options?: CallOptions): Call<ReadResourceResult>;
  /** Cancels calls in flight, ends the session and stops a spawned server. */
  close(): Promise<void>;
}

export class ConnectedClient implements ParleyClient {
  constructor(
    private readonly connection: Connection,
    private readonly transport: Transport & { terminateSession?: () => Promise<void> },
  ) {}

  get server(): ServerIdentity {
    return this.connection.server;
  }

  get era(): Era {
    return this.connection.era;
  }

  get protocolVersion(): string {
    return this.connection.protocolVersion;
  }

  get eraNotice(): string | undefined {
    return this.connection.eraNotice;
  }

  get capabilities(): ServerCapabilities {
    return this.connection.sdk.getServerCapabilities() ?? {};
  }

  get instructions(): string | undefined {
    return this.connection.sdk.getInstructions();
  }

  listTools(): Promise<Tool[]> {
    return this.list('tools', async () => {
      const { tools } = await this.connection.sdk.listTools();
      rememberTools(this.connection, tools);
      return tools;
    });
  }

  listPrompts(): Promise<Prompt[]> {
    return this.list('prompts', async () => (await this.connection.sdk.listPrompts()).prompts);
  }

  listResources(): Promise<Resource[]> {
    return this.list('resources', async () => (await this.connection.sdk.listResources()).resources);
  }

  listResourceTemplates(): Promise<ResourceTemplateType[]> {
    return this.list(
      'resources',
      async () => (await this.connection.sdk.listResourceTemplates()).resourceTemplates,
    );
  }

  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Call<CallToolResult> {
    const info: CallInfo = { kind: 'tool', name, ...(args !== undefined && { arguments: args }) };
    return this.start<CallToolResult>(info, 'tools/call', { name, arguments: args ?? {} }, options);
  }

  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Call<GetPromptResult> {
    const info: CallInfo = { kind: 'prompt', name, ...(args !== undefined && { arguments: args }) };
    return this.start<GetPromptResult>(
      info,
      'prompts/get',
      { name, ...(args !== undefined && { arguments: args }) },
      options,
    );
  }

  readResource(uri: string, options?: CallOptions): Call<ReadResourceResult> {
    return this.start<ReadResourceResult>(
      { kind: 'resource', name: uri },
      'resources/read',
      { uri },
      options,
    );
  }

  async close(): Promise<void> {
    for (const call of this.connection.calls.all()) {
      call.stop(
        new ParleyError('cancelled', `The connection to ${this.server.name} was closed by the client`),
      );
    }
    await this.transport.terminateSession?.().catch(() => {});
    await this.connection.sdk.close();
  }

  private async list<T>(
    capability: 'tools' | 'prompts' | 'resources',
    fetch: () => Promise<T[]>,
  ): Promise<T[]> {
    // The SDK answers an empty list (and logs) when the capability is missing; skip the log.
    if (this.capabilities[capability] === undefined) return [];
    try {
      return await fetch();
    } catch (error) {
      throw translateError(error, this.server.name);
    }
  }

  /** Opens the call (so it has its id at once), starts driving it, and returns both. */
  private start<T>(
    info: CallInfo,
    method: CallMethod,
    params: Record<string, unknown>,
    options: CallOptions | undefined,
  ): Call<T> {
    const call = this.connection.calls.open(info, method, options?.signal);
    const result = this.run<T>(call, params, options);
    return Object.assign(result, {
      id: call.id,
      call: info,
      method,
      onEvent: (listener: (event: CallEvent) => void) => call.subscribe(listener),
    });
  }

  private async run<T>(
    call: CallState,
    params: Record<string, unknown>,
    options: CallOptions | undefined,
  ): Promise<T> {
    const { connection } = this;
    const { info } = call;
    try {
      const drive = connection.era === 'modern' ? runModernCall : runHandshakeCall;
      const result = await drive(connection, call, params);
      connection.emit({
        type: 'result',
        callId: call.id,
        round: call.round,
        isError: result.isError === true,
        at: Date.now(),
        ms: Date.now() - call.startedAt,
      });
      return result as T;
    } catch (error) {
      const failure = options?.signal?.aborted
        ? stopReason(connection, call, options.signal.reason)
        : translateError(error, this.server.name, info);
      connection.emit({
        type: 'error',
        callId: call.id,
        round: call.round,
        message: failure.message,
        at: Date.now(),
        ms: Date.now() - call.startedAt,
      });
      throw failure;
    } finally {
      connection.calls.close(call, new Error('The call ended'));
    }
  }
}
