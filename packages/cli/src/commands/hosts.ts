import { type ElicitationUI, scripted } from '@parley/client';
import type { RequestedSchema } from '@parley/core/form';
import { readAnswersFile } from '../answers-file.js';
import { buildArguments } from '../arguments.js';
import type { Command } from '../command.js';
import { CONNECTION_FLAGS, CONNECTION_FLAGS_HELP, readConnectionSettings } from '../connection-options.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { hostMatrixJson, hostMatrixText } from '../host-matrix-text.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { say, writeJson, writeText } from '../print.js';
import { withSession } from '../session.js';

const HOSTS_FLAGS = {
  ...CONNECTION_FLAGS,
  arg: { type: 'string', multiple: true, short: 'a' },
  json: { type: 'string' },
} as const;

/** A form question the tool asked, as the server sent it. */
interface Asked {
  readonly key: string | undefined;
  readonly message: string;
  readonly schema: RequestedSchema;
}

/**
 * Records every form question, then answers it from the answers file, or declines it (so nothing is
 * done: only the first question is seen).
 */
function recordingUI(answers: ElicitationUI | undefined, asked: Asked[]): ElicitationUI {
  return {
    ...(answers ?? {}),
    modes: { form: true, url: answers?.modes.url ?? false },
    async form(request, context) {
      asked.push({ key: context.key, message: request.message, schema: request.requestedSchema });
      return answers ? answers.form(request, context) : { action: 'decline' };
    },
    url: answers
      ? (request, inspection, context) => answers.url(request, inspection, context)
      : async () => ({ action: 'decline' }),
  };
}

export const hostsCommand: Command = {
  name: 'hosts',
  summary: "show how a tool's questions look in each known host",
  usage: `Usage: parley hosts <target> <tool> [--arg name=value]... [--answers file.json] [options]

Calls <tool> and shows, for every form question it asks, how each MCP host with
a profile meets it (VS Code, Codex, Claude Code, Goose, ...): shown in the host
as it is, shown as Parley lowers it for that host (numbers as text, a
multi-select as yes/no fields, ...), or asked on a page of the server, with the
reason and the sources of every rule.

Without --answers every question is declined, so the tool does nothing and only
its first question is shown. With --answers the call goes on with those answers
(and does what the tool does), showing every question it asks.

  -a, --arg name=value   one argument of the tool (repeatable)
  --json '{...}'         all arguments as one JSON object

${CONNECTION_FLAGS_HELP}

${EXIT_CODES_HELP}

Examples:
  parley hosts "node examples/brightgrid/dist/stdio.js" book_return
  parley hosts http://localhost:3000/mcp select_tags --arg sku=BG-100 --output json`,
  async run(args, io) {
    const parsed = parseCommandArgs('hosts', args, HOSTS_FLAGS, ['target', 'tool']);
    if (parsed.help) {
      writeText(io.stdout, this.usage);
      return EXIT.ok;
    }
    const settings = readConnectionSettings(parsed.values, io.env);
    const [target, tool] = parsed.positionals as [string, string];
    const asked: Asked[] = [];
    const ui = async () =>
      recordingUI(
        settings.answersFile === undefined
          ? undefined
          : scripted(await readAnswersFile(settings.answersFile)),
        asked,
      );
    return withSession(
      target,
      settings,
      io,
      async ({ client, signal }) => {
        const pairs = parsed.values.arg ?? [];
        const schema =
          pairs.length > 0
            ? (await client.listTools()).find((candidate) => candidate.name === tool)?.inputSchema
            : undefined;
        await client.callTool(tool, buildArguments(parsed.values.json, pairs, schema), { signal });
        if (settings.output === 'json') {
          writeJson(
            io.stdout,
            asked.map((question) => hostMatrixJson(question.key, question.message, question.schema)),
          );
          return EXIT.ok;
        }
        if (asked.length === 0) {
          say(io.stderr, `parley: ${tool} asked no form question`);
          return EXIT.ok;
        }
        writeText(
          io.stdout,
          asked
            .map((question) => hostMatrixText(question.key, question.message, question.schema))
            .join('\n\n'),
        );
        return EXIT.ok;
      },
      ui,
    );
  },
};
