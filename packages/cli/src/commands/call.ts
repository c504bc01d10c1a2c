import { buildArguments } from '../arguments.js';
import type { Command } from '../command.js';
import { CONNECTION_FLAGS, CONNECTION_FLAGS_HELP, readConnectionSettings } from '../connection-options.js';
import { handshakeEraHint, needsHandshakeEra } from '../era-hint.js';
import { EXIT, EXIT_CODES_HELP, exitCodeForResult } from '../exit-codes.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { say, toolResultText, writeJson, writeText } from '../print.js';
import { withSession } from '../session.js';

const CALL_FLAGS = {
  ...CONNECTION_FLAGS,
  arg: { type: 'string', multiple: true, short: 'a' },
  json: { type: 'string' },
} as const;

export const callCommand: Command = {
  name: 'call',
  summary: 'call a tool and answer its questions',
  usage: `Usage: parley call <target> <tool> [--arg name=value]... [--json '{...}'] [options]

Calls <tool> and puts every question the server asks in front of you, one at a
time. The result goes to stdout; questions and messages go to stderr.

  -a, --arg name=value   one argument (repeatable); numbers, booleans, arrays and
                         objects follow the tool's input schema
  --json '{...}'         all arguments as one JSON object (--arg values win)

${CONNECTION_FLAGS_HELP}

${EXIT_CODES_HELP}

Examples:
  parley call "node server.js" book_table --arg guests=2
  parley call http://localhost:3000/mcp checkout --answers answers.json`,
  async run(args, io) {
    const parsed = parseCommandArgs('call', args, CALL_FLAGS, ['target', 'tool']);
    if (parsed.help) {
      writeText(io.stdout, this.usage);
      return EXIT.ok;
    }
    const settings = readConnectionSettings(parsed.values, io.env);
    const [target, tool] = parsed.positionals as [string, string];
    const pairs = parsed.values.arg ?? [];
    return withSession(target, settings, io, async ({ client, signal, endedOnRefusal }) => {
      const schema =
        pairs.length > 0
          ? (await client.listTools()).find((candidate) => candidate.name === tool)?.inputSchema
          : undefined;
      const toolArgs = buildArguments(parsed.values.json, pairs, schema);
      const result = await client.callTool(tool, toolArgs, { signal });
      if (settings.output === 'json') writeJson(io.stdout, result);
      else writeText(io.stdout, toolResultText(result));
      const code = exitCodeForResult(result.isError === true, endedOnRefusal());
      if (code === EXIT.toolError) say(io.stderr, `parley: ${tool} reported an error`);
      if (needsHandshakeEra(client, result.isError === true, toolResultText(result)))
        say(io.stderr, handshakeEraHint(client.server.name).trimEnd());
      if (code === EXIT.refused) say(io.stderr, `parley: ${tool} ended after you declined or cancelled`);
      return code;
    });
  },
};
