import { buildArguments } from '../arguments.js';
import type { Command } from '../command.js';
import { CONNECTION_FLAGS, CONNECTION_FLAGS_HELP, readConnectionSettings } from '../connection-options.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { promptText, writeJson, writeText } from '../print.js';
import { withSession } from '../session.js';

const PROMPT_FLAGS = {
  ...CONNECTION_FLAGS,
  arg: { type: 'string', multiple: true, short: 'a' },
  json: { type: 'string' },
} as const;

export const promptCommand: Command = {
  name: 'prompt',
  summary: 'get a prompt and answer its questions',
  usage: `Usage: parley prompt <target> <name> [--arg name=value]... [--json '{...}'] [options]

Gets the prompt <name> (answering any questions on the way) and prints its messages.
Prompt arguments are strings.

${CONNECTION_FLAGS_HELP}

${EXIT_CODES_HELP}`,
  async run(args, io) {
    const parsed = parseCommandArgs('prompt', args, PROMPT_FLAGS, ['target', 'name']);
    if (parsed.help) {
      writeText(io.stdout, this.usage);
      return EXIT.ok;
    }
    const settings = readConnectionSettings(parsed.values, io.env);
    const [target, name] = parsed.positionals as [string, string];
    const promptArgs = buildArguments(parsed.values.json, parsed.values.arg ?? [], undefined);
    return withSession(target, settings, io, async ({ client, signal }) => {
      const strings = Object.fromEntries(
        Object.entries(promptArgs).map(([key, value]) => [
          key,
          typeof value === 'string' ? value : JSON.stringify(value),
        ]),
      );
      const result = await client.getPrompt(name, Object.keys(strings).length > 0 ? strings : undefined, {
        signal,
      });
      if (settings.output === 'json') writeJson(io.stdout, result);
      else writeText(io.stdout, promptText(result));
      return EXIT.ok;
    });
  },
};
