import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where `parley` keeps sign-ins: `$XDG_CONFIG_HOME/parley/tokens.json`, else
 * `~/.config/parley/tokens.json` (a file only the user can read, in a directory only they can open).
 */
export function tokenFilePath(env: NodeJS.ProcessEnv): string {
  const config = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(config, 'parley', 'tokens.json');
}
