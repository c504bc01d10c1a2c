import { fileStore } from '@parley/client/oauth';
import type { Command } from '../command.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { say, writeText } from '../print.js';
import { tokenFilePath } from '../sign-in/token-file.js';

export const logoutCommand: Command = {
  name: 'logout',
  summary: 'forget the sign-in to a server',
  usage: `Usage: parley logout <server-url>

Forgets the tokens (and the client registration) parley keeps for <server-url>, the
URL you called it with. The next command that reaches the server asks you to sign in
again. Sign-ins are kept in $XDG_CONFIG_HOME/parley/tokens.json (else
~/.config/parley/tokens.json), readable only by you.`,
  async run(args, io) {
    const parsed = parseCommandArgs('logout', args, { help: { type: 'boolean', short: 'h' } }, [
      'server-url',
    ]);
    if (parsed.help) {
      writeText(io.stdout, this.usage);
      return EXIT.ok;
    }
    let server: URL;
    try {
      server = new URL(parsed.positionals[0]!);
    } catch {
      throw new UsageError(
        'parley logout takes the server URL you signed in to, like https://mcp.example.com/mcp',
      );
    }
    server.hash = '';
    const store = fileStore(tokenFilePath(io.env));
    if ((await store.load(server.href)) === undefined) {
      say(io.stderr, `parley: not signed in to ${server.href}`);
      return EXIT.ok;
    }
    await store.delete(server.href);
    say(io.stderr, `parley: signed out of ${server.href}`);
    return EXIT.ok;
  },
};
