// The conformance suite's client under test, written with Parley's public client API. The suite runs
// `node conformance/dist/client.js <server-url>` with MCP_CONFORMANCE_SCENARIO set (and, for some
// scenarios, MCP_CONFORMANCE_CONTEXT); whatever the scenario, this client does what a host does:
// connect (era negotiated, signing in when the server asks: in a browser, or with the credentials
// the scenario hands over), list the tools, call them, and accept every question with the form's
// defaults (the client fills them in).
import { connect, type ElicitationUI, ParleyError, type Tool } from '@parley/client';
import { oauthSession } from '@parley/client/oauth';
import { conformanceContext, type ToolCall } from './context.js';

/** Arguments for the tools the scenarios list; any other tool is called with none. */
const ARGUMENTS: Record<string, Record<string, unknown>> = {
  add_numbers: { a: 5, b: 3 },
};

/** The client metadata document URL the suite's CIMD scenarios expect a client to use. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** A host that accepts every form as offered: empty content, so the client fills in the defaults. */
const acceptDefaults: ElicitationUI = {
  modes: { form: true, url: false },
  form: async () => ({ action: 'accept', content: {} }),
  url: async () => ({ action: 'decline' }),
};

/**
 * The person signing in, played by a program: the suite's authorization servers approve at once
 * and redirect, so following the redirect by hand gives the URL the browser would land on.
 */
async function followAuthorizationRedirect(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (location === null)
    throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return new URL(location, url);
}

/** The calls to make: the scenario's own list, an echo of a schema, or every tool listed. */
function callsFor(tools: readonly Tool[], given: readonly ToolCall[] | undefined): ToolCall[] {
  if (given !== undefined) return [...given];
  const echo = tools.find((tool) => tool.name === 'json_schema_echo');
  if (echo !== undefined) {
    // Hands back, unchanged, the schema another tool was listed with, so the suite can see it survived.
    const other = tools.find((tool) => tool.name !== echo.name);
    return other === undefined ? [] : [{ name: echo.name, arguments: { schema: other.inputSchema } }];
  }
  return tools.map((tool) => ({ name: tool.name, arguments: ARGUMENTS[tool.name] ?? {} }));
}

async function run(url: string): Promise<void> {
  const context = conformanceContext();
  // A scenario that hands over credentials for a grant signs in with it, nobody at a browser.
  const session =
    context.grant !== undefined
      ? oauthSession({ grant: context.grant })
      : oauthSession({
          redirectUri: 'http://127.0.0.1:8976/callback',
          authorize: followAuthorizationRedirect,
          clientName: 'parley-conformance-client',
          clientMetadataUrl: CLIENT_METADATA_URL,
          ...(context.preRegistered !== undefined && { clients: context.preRegistered }),
        });
  const client = await connect(url, {
    ui: acceptDefaults,
    clientInfo: { name: 'parley-conformance-client', version: '0.1.0' },
    fetch: session.fetch,
  });
  try {
    for (const call of callsFor(await client.listTools(), context.toolCalls)) {
      try {
        const result = await client.callTool(call.name, call.arguments);
        process.stderr.write(`${call.name}: ${result.isError ? 'tool error' : 'ok'}\n`);
      } catch (error) {
        // A server that lists a tool but answers its call with a JSON-RPC error (some scenarios
        // serve only tools/list) has not made the client fail; anything else has.
        if (!(error instanceof ParleyError && error.kind === 'server')) throw error;
        process.stderr.write(`${call.name}: server error: ${error.message}\n`);
      }
    }
  } finally {
    await client.close();
  }
}

const url = process.argv[2];
if (url === undefined) {
  process.stderr.write('usage: node conformance/dist/client.js <server-url>\n');
  process.exit(2);
}
try {
  await run(url);
} catch (error) {
  process.stderr.write(
    `parley conformance client: ${error instanceof ParleyError ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
