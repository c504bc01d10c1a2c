import {
  Client,
  type ClientCapabilities,
  type FetchLike,
  type Transport,
  type VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import { treatAbsentResultTypeAsComplete } from './absent-result-type.js';
import { ParleyError } from './errors.js';
import { describeTarget, parseTarget, type Target } from './target.js';
import { translateError } from './translate-error.js';
import { createTransport } from './transport.js';
import type { Era, ServerIdentity } from './types.js';
import { DEFAULT_CLIENT_INFO } from './version.js';

/** How long a stdio server may stay silent on the `server/discover` probe before it counts as handshake-era. */
const STDIO_DISCOVER_TIMEOUT_MS = 10_000;

/** Options of {@link connectSdk}. */
export interface SdkConnectOptions {
  /** How the client names itself. Default: `{ name: 'parley', version }`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** `auto` (default): 2026-07-28 first, the `initialize` handshake when the server does not speak it. */
  readonly era?: 'auto' | 'modern' | 'handshake';
  /**
   * The protocol revisions the client speaks, newest first (default: every revision the SDK knows).
   * `['2025-06-18']` with era `handshake` offers exactly that revision in `initialize`, and refuses a
   * server that answers with another.
   */
  readonly protocolVersions?: readonly string[];
  /**
   * What the client declares: in `initialize` on the 2025 eras, and in every request's `_meta` on
   * 2026-07-28 unless the request names its own `clientCapabilities`.
   */
  readonly capabilities: ClientCapabilities;
  /** How long one request may take before it fails; also bounds connecting. Default 60 s. */
  readonly requestTimeoutMs?: number;
  /** stdio, era `auto`: how long the server may stay silent on the discover probe. Default 10 s. */
  readonly discoverTimeoutMs?: number;
  /** HTTP: headers for every request. */
  readonly headers?: Record<string, string>;
  /** HTTP: the fetch to use (e.g. an OAuth session's). */
  readonly fetch?: FetchLike;
  /**
   * The transport to connect over, instead of the one made for the target (the target then only
   * names the server in errors; `headers`, `fetch` and the stdio options are the transport's
   * business).
   */
  readonly transport?: Transport;
  /** stdio: extra environment, on top of the SDK's safe default set. */
  readonly env?: Record<string, string>;
  /** stdio: the server's working directory. */
  readonly cwd?: string;
  /** stdio: the server's stderr. Default `inherit`. */
  readonly stderr?: 'inherit' | 'ignore' | ((line: string) => void);
  /** Sets handlers on the SDK client before it connects (server requests, notifications). */
  readonly prepare?: (client: Client) => void;
}

/** An SDK client connected the way Parley connects, with what the handshake or probe found out. */
export interface SdkConnection {
  readonly sdk: Client;
  readonly transport: Transport;
  readonly target: Target;
  readonly era: Era;
  readonly protocolVersion: string;
  readonly server: ServerIdentity;
  /** Set when a stdio server stayed silent on the discover probe and the handshake was used. */
  readonly eraNotice: string | undefined;
}

/**
 * Connects the official SDK's client to a server (a URL, a command line or an argv array) and
 * negotiates the era, with nothing of Parley's question handling: `input_required` results come
 * back as they are (`allowInputRequired`), server requests go to what `prepare` registered. A
 * 2026-07-28 result without `resultType` is read as complete, as MCP requires of clients.
 * `connect()` is built on it; so is a relay that carries questions on for someone else.
 *
 * @example
 * const { sdk, era } = await connectSdk('http://127.0.0.1:3000/mcp', { capabilities: {} });
 * const result = await sdk.request({ method: 'tools/list', params: {} });
 */
export async function connectSdk(
  target: string | readonly string[] | URL,
  options: SdkConnectOptions,
): Promise<SdkConnection> {
  const parsed = parseTarget(target);
  const era = options.era ?? 'auto';
  const requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  const discoverTimeoutMs = options.discoverTimeoutMs ?? STDIO_DISCOVER_TIMEOUT_MS;
  const sdk = new Client(options.clientInfo ?? { ...DEFAULT_CLIENT_INFO }, {
    capabilities: options.capabilities,
    versionNegotiation: negotiation(era, parsed, requestTimeoutMs, discoverTimeoutMs),
    inputRequired: { autoFulfill: false },
    ...(options.protocolVersions !== undefined && {
      supportedProtocolVersions: [...options.protocolVersions],
    }),
  });
  options.prepare?.(sdk);
  const transport = options.transport ?? createTransport(parsed, options);
  const startedAt = performance.now();
  try {
    await sdk.connect(transport, { timeout: requestTimeoutMs });
  } catch (error) {
    await sdk.close().catch(() => {});
    throw signInFailure(error) ?? connectError(error, parsed, era);
  }
  const negotiated: Era = sdk.getProtocolEra() === 'modern' ? 'modern' : 'handshake';
  // The SDK does not say why it fell back, but a 2025-era server refuses the probe at once: a
  // handshake connection that took the whole probe timeout got there because the server was silent.
  const fellBackOnSilence =
    negotiated === 'handshake' &&
    era === 'auto' &&
    parsed.kind === 'stdio' &&
    performance.now() - startedAt >= discoverTimeoutMs;
  if (negotiated === 'modern') treatAbsentResultTypeAsComplete(transport);
  const info = sdk.getServerVersion();
  return {
    sdk,
    transport,
    target: parsed,
    era: negotiated,
    protocolVersion: sdk.getNegotiatedProtocolVersion() ?? '',
    server: {
      name: info?.name || describeTarget(parsed),
      version: info?.version ?? '',
      ...(info?.title !== undefined && { title: info.title }),
    },
    eraNotice: fellBackOnSilence
      ? `The server did not answer the 2026-07-28 discover probe within ${discoverTimeoutMs} ms, so this connection uses the 2025 handshake. If the server is only slow to start, pin the era to modern (the CLI's --era modern) or raise discoverTimeoutMs.`
      : undefined,
  };
}

function negotiation(
  era: 'auto' | 'modern' | 'handshake',
  target: Target,
  timeoutMs: number,
  discoverTimeoutMs: number,
): VersionNegotiationOptions {
  if (era === 'handshake') return { mode: 'legacy' };
  if (era === 'modern') return { mode: { pin: '2026-07-28' } };
  return { mode: 'auto', probe: { timeoutMs: target.kind === 'stdio' ? discoverTimeoutMs : timeoutMs } };
}

/** A sign-in that failed inside the transport's fetch, however deep the SDK wrapped it. */
function signInFailure(error: unknown): ParleyError | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof ParleyError && cause.kind === 'auth') return cause;
  }
  return undefined;
}

function connectError(error: unknown, target: Target, era: string): ParleyError {
  const translated = translateError(error, describeTarget(target));
  const hint =
    target.kind === 'stdio'
      ? 'check that the command starts an MCP server on stdio'
      : 'check the URL and that the server is running';
  const eraHint = era === 'modern' ? ' (era "modern" was required; try era "auto")' : '';
  return new ParleyError(
    'connection',
    `Could not connect to ${describeTarget(target)}: ${translated.message.replace(/^The connection to .*? failed: /, '')}; ${hint}${eraHint}`,
    { cause: error },
  );
}
