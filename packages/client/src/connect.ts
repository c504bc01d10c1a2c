import { Client, type VersionNegotiationOptions } from '@modelcontextprotocol/client';
import { treatAbsentResultTypeAsComplete } from './absent-result-type.js';
import { capabilitiesFor } from './capabilities.js';
import { Connection } from './connection.js';
import { ParleyError } from './errors.js';
import { safeListener } from './events.js';
import { registerHandshakeHandlers } from './handshake-handlers.js';
import { type ConnectOptions, resolveSettings } from './options.js';
import { ConnectedClient, type ParleyClient } from './parley-client.js';
import { describeTarget, parseTarget, type Target } from './target.js';
import { translateError } from './translate-error.js';
import { createTransport } from './transport.js';
import { DEFAULT_CLIENT_INFO } from './version.js';

/** How long a stdio server may stay silent on the `server/discover` probe before it counts as handshake-era. */
const STDIO_DISCOVER_TIMEOUT_MS = 10_000;

/**
 * Connects to an MCP server and negotiates the era: modern (2026-07-28) first, the `initialize`
 * handshake when the server does not speak it. `target` is a URL (Streamable HTTP) or a command line
 * (split like a shell would, no shell invoked) or argv array (stdio: the server is spawned).
 *
 * @example
 * import { connect } from '@parley/client';
 * import { terminalUI } from '@parley/client/terminal';
 *
 * const client = await connect('node server.js', { ui: terminalUI() });
 * const result = await client.callTool('book_table', { guests: 2 });
 * console.log(result.content);
 * await client.close();
 */
export async function connect(
  target: string | readonly string[] | URL,
  options: ConnectOptions,
): Promise<ParleyClient> {
  const parsed = parseTarget(target);
  const settings = resolveSettings(options);
  const discoverTimeoutMs = options.discoverTimeoutMs ?? STDIO_DISCOVER_TIMEOUT_MS;
  const sdk = new Client(options.clientInfo ?? { ...DEFAULT_CLIENT_INFO }, {
    capabilities: capabilitiesFor(options.ui),
    versionNegotiation: negotiation(
      options.era ?? 'auto',
      parsed,
      settings.requestTimeoutMs,
      discoverTimeoutMs,
    ),
    inputRequired: { autoFulfill: false },
  });
  const connection = new Connection(sdk, options.ui, settings, safeListener(options.onEvent));
  registerHandshakeHandlers(connection);
  const transport = createTransport(parsed, options);
  const startedAt = performance.now();
  try {
    await sdk.connect(transport, { timeout: settings.requestTimeoutMs });
  } catch (error) {
    await sdk.close().catch(() => {});
    throw signInFailure(error) ?? connectError(error, parsed, options.era ?? 'auto');
  }
  const era = sdk.getProtocolEra() === 'modern' ? 'modern' : 'handshake';
  // The SDK does not say why it fell back, but a 2025-era server refuses the probe at once: a
  // handshake connection that took the whole probe timeout got there because the server was silent.
  const fellBackOnSilence =
    era === 'handshake' &&
    (options.era ?? 'auto') === 'auto' &&
    parsed.kind === 'stdio' &&
    performance.now() - startedAt >= discoverTimeoutMs;
  if (era === 'modern') treatAbsentResultTypeAsComplete(transport);
  const info = sdk.getServerVersion();
  const server = {
    name: info?.name || describeTarget(parsed),
    version: info?.version ?? '',
    ...(info?.title !== undefined && { title: info.title }),
  };
  const eraNotice = fellBackOnSilence
    ? `The server did not answer the 2026-07-28 discover probe within ${discoverTimeoutMs} ms, so this connection uses the 2025 handshake. If the server is only slow to start, pin the era to modern (the CLI's --era modern) or raise discoverTimeoutMs.`
    : undefined;
  connection.ready(server, era, sdk.getNegotiatedProtocolVersion() ?? '', eraNotice);
  return new ConnectedClient(connection, transport);
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
