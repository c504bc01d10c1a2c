// The conformance suite's client under test, written with Parley's public client API. The suite runs
// `node conformance/dist/client.js <server-url>` with MCP_CONFORMANCE_SCENARIO set; whatever the
// scenario, this client does what a host does: connect (era negotiated), list the tools, call each
// one, and accept every question with the form's defaults (the client fills them in).
import { connect, type ElicitationUI, ParleyError } from '@parley/client';

/** Arguments for the tools the scenarios list; any other tool is called with none. */
const ARGUMENTS: Record<string, Record<string, unknown>> = {
  add_numbers: { a: 5, b: 3 },
};

/** A host that accepts every form as offered: empty content, so the client fills in the defaults. */
const acceptDefaults: ElicitationUI = {
  modes: { form: true, url: false },
  form: async () => ({ action: 'accept', content: {} }),
  url: async () => ({ action: 'decline' }),
};

async function run(url: string): Promise<void> {
  const ui = acceptDefaults;
  const client = await connect(url, {
    ui,
    clientInfo: { name: 'parley-conformance-client', version: '0.1.0' },
  });
  try {
    for (const tool of await client.listTools()) {
      const result = await client.callTool(tool.name, ARGUMENTS[tool.name] ?? {});
      process.stderr.write(`${tool.name}: ${result.isError ? 'tool error' : 'ok'}\n`);
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
