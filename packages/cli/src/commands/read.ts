import type { Command } from '../command.js';
import { CONNECTION_FLAGS, CONNECTION_FLAGS_HELP, readConnectionSettings } from '../connection-options.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { resourceText, writeJson, writeText } from '../print.js';
import { withSession } from '../session.js';

export const readCommand: Command = {
  name: 'read',
  summary: 'read a resource and answer its questions',
  usage: `Usage: parley read <target> <uri> [options]

Reads the resource <uri> (answering any questions on the way) and prints it.

${CONNECTION_FLAGS_HELP}

${EXIT_CODES_HELP}`,
  async run(args, io) {
    const parsed = parseCommandArgs('read', args, CONNECTION_FLAGS, ['target', 'uri']);
    if (parsed.help) {
      writeText(io.stdout, this.usage);
      return EXIT.ok;
    }
    const settings = readConnectionSettings(parsed.values, io.env);
    const [target, uri] = parsed.positionals as [string, string];
    return withSession(target, settings, io, async ({ client, signal }) => {
      const result = await client.readResource(uri, { signal });
      if (settings.output === 'json') writeJson(io.stdout, result);
      else writeText(io.stdout, resourceText(result));
      return EXIT.ok;
    });
  },
};
