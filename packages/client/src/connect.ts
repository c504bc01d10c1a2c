import { capabilitiesFor } from './capabilities.js';
import { Connection } from './connection.js';
import { safeListener } from './events.js';
import { registerHandshakeHandlers } from './handshake-handlers.js';
import { type ConnectOptions, resolveSettings } from './options.js';
import { ConnectedClient, type ParleyClient } from './parley-client.js';
import { connectSdk } from './sdk-connection.js';

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
  const settings = resolveSettings(options);
  let connection: Connection | undefined;
  const connected = await connectSdk(target, {
    ...options,
    capabilities: capabilitiesFor(options.ui),
    requestTimeoutMs: settings.requestTimeoutMs,
    prepare: (sdk) => {
      connection = new Connection(sdk, options.ui, settings, safeListener(options.onEvent));
      registerHandshakeHandlers(connection);
    },
  });
  connection!.ready(connected.server, connected.era, connected.protocolVersion, connected.eraNotice);
  return new ConnectedClient(connection!, connected.transport);
}
