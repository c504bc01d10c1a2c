import type { Tool } from '@parley/client';
import { terminalLine } from '@parley/client/terminal';
import type { Command } from '../command.js';
import { CONNECTION_FLAGS, CONNECTION_FLAGS_HELP, readConnectionSettings } from '../connection-options.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { writeJson, writeText } from '../print.js';
import { withSession } from '../session.js';

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'list the tools a server offers',
  usage: `Usage: parley tools <target> [options]

<target> is a URL (http:// or https://, Streamable HTTP) or a command line that
starts a server on stdio, quoted as one argument: "node server.js".

${CONNECTION_FLAGS_HELP}

${EXIT_CODES_HELP}`,
  async run(args, io) {
    const parsed = parseCommandArgs('tools', args, CONNECTION_FLAGS, ['target']);
    if (parsed.help) {
      writeText(io.stdout, this.usage);
      return EXIT.ok;
    }
    const settings = readConnectionSettings(parsed.values, io.env);
    return withSession(parsed.positionals[0]!, settings, io, async ({ client }) => {
      const tools = await client.listTools();
      if (settings.output === 'json') {
        writeJson(io.stdout, tools);
        return EXIT.ok;
      }
      writeText(io.stdout, tools.length > 0 ? toolListText(tools) : `${client.server.name} offers no tools`);
      return EXIT.ok;
    });
  },
};

/**
 * One line per tool: its name, then the first line of its description in a column. Names are made
 * inert before they are measured (on a pipe too: a name must never start a second line), so a name
 * with escape codes lines up by what the terminal shows.
 */
export function toolListText(tools: readonly Pick<Tool, 'name' | 'description'>[]): string {
  const names = tools.map((tool) => terminalLine(tool.name));
  const width = Math.max(0, ...names.map((name) => [...name].length));
  return tools
    .map((tool, index) => {
      const name = names[index]!;
      const description = tool.description?.split('\n')[0]?.trim();
      return description ? `${name}${' '.repeat(width - [...name].length)}  ${description}` : name;
    })
    .join('\n');
}
