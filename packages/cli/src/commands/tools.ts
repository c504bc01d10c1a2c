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
    const settings = readConnectionSettings(parsed.values);
    return withSession(parsed.positionals[0]!, settings, io, async ({ client }) => {
      const tools = await client.listTools();
      if (settings.output === 'json') {
        writeJson(io.stdout, tools);
        return EXIT.ok;
      }
      const width = Math.max(0, ...tools.map((tool) => tool.name.length));
      const lines = tools.map((tool) => {
        const description = tool.description?.split('\n')[0]?.trim();
        return description ? `${tool.name.padEnd(width)}  ${description}` : tool.name;
      });
      writeText(io.stdout, lines.length > 0 ? lines.join('\n') : `${client.server.name} offers no tools`);
      return EXIT.ok;
    });
  },
};
