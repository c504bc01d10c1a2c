import { fileStore } from '@parley/client/oauth';
import type { Command } from '../command.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { say, writeText } from '../print.js';
import { serviceTokenFilePath, tokenFilePath } from '../sign-in/token-file.js';

export const logoutCommand: Command = {
  name: 'logout',
  summary: 'forget the sign-in to a server',
  usage: `Usage: parley logout <server-url>

Forgets the tokens (and the client registration) parley keeps for <server-url>, the
URL you called it with, yours and those of a service signed in with --client-id or
--workload-token. The next command that reaches the server asks you to sign in
again. Sign-ins are kept in $XDG_CONFIG_HOME/parley/tokens.json (else
~/.config/parley/tokens.json), a service's in service-tokens.json beside it, readable
only by you.`,
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
    let signedIn = false;
    for (const store of [fileStore(tokenFilePath(io.env)), fileStore(serviceTokenFilePath(io.env))]) {
      if ((await store.load(server.href)) === undefined) continue;
      await store.delete(server.href);
      signedIn = true;
    }
    say(io.stderr, `parley: ${signedIn ? 'signed out of' : 'not signed in to'} ${server.href}`);
    return EXIT.ok;
  },
};
