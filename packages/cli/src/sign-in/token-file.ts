import { homedir } from 'node:os';
import { join } from 'node:path';

function configDir(env: NodeJS.ProcessEnv): string {
  const config = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(config, 'parley');
}

/**
 * Where `parley` keeps sign-ins: `$XDG_CONFIG_HOME/parley/tokens.json`, else
 * `~/.config/parley/tokens.json` (a file only the user can read, in a directory only they can open).
 */
export function tokenFilePath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'tokens.json');
}

/**
 * Where `parley` keeps what it got signing in as a service (`--client-id`, `--workload-token`),
 * beside and apart from people's sign-ins: `service-tokens.json` in the same directory.
 */
export function serviceTokenFilePath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'service-tokens.json');
}
