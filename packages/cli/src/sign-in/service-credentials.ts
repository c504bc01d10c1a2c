import { UsageError } from '../exit-codes.js';

/** The flags that sign `parley` in as a service rather than a person. */
export interface ServiceFlags {
  'client-id'?: string;
  'client-secret'?: string;
  'client-key'?: string;
  'workload-token'?: string;
  issuer?: string;
}

/**
 * How `parley` signs in with nobody at a browser: as a registered client (client credentials,
 * with a secret or a private key file), or as a workload with its platform's JWT (a file read at
 * every sign-in). Flags win over the environment.
 */
export type ServiceCredentials =
  | {
      readonly kind: 'client';
      readonly clientId: string;
      readonly clientSecret?: string;
      readonly keyFile?: string;
      readonly issuer?: string;
    }
  | { readonly kind: 'workload'; readonly tokenFile: string; readonly issuer?: string };

/**
 * Reads the service sign-in from the flags and the environment (`PARLEY_CLIENT_ID`,
 * `PARLEY_CLIENT_SECRET`, `PARLEY_CLIENT_KEY_FILE`, `PARLEY_WORKLOAD_TOKEN_FILE`, `PARLEY_ISSUER`);
 * `undefined` when there is none (a person signs in in the browser). Half a set is a usage error
 * that names what is missing; the secret never appears in one. A secret or a workload JWT, which
 * whoever receives it can use, goes only to a pinned authorization server (`--issuer`); a private
 * key's assertion is made out to the server it is sent to, which is pinned at first use.
 */
export function readServiceCredentials(
  flags: ServiceFlags,
  env: NodeJS.ProcessEnv,
): ServiceCredentials | undefined {
  const value = (flag: keyof ServiceFlags, name: string) => {
    const given = flags[flag] ?? (env[name] || undefined);
    if (given !== undefined && given.trim() === '') throw new UsageError(`--${flag} (or ${name}) is empty`);
    return given;
  };
  const clientId = value('client-id', 'PARLEY_CLIENT_ID');
  const clientSecret = value('client-secret', 'PARLEY_CLIENT_SECRET');
  const keyFile = value('client-key', 'PARLEY_CLIENT_KEY_FILE');
  const tokenFile = value('workload-token', 'PARLEY_WORKLOAD_TOKEN_FILE');
  const issuer = value('issuer', 'PARLEY_ISSUER');
  if (issuer !== undefined && !URL.canParse(issuer))
    throw new UsageError(`--issuer must be the authorization server's issuer URL; got "${issuer}"`);
  if (tokenFile !== undefined) {
    if (clientSecret !== undefined || keyFile !== undefined)
      throw new UsageError(
        '--workload-token signs in with the workload JWT alone; drop --client-secret and --client-key',
      );
    if (issuer === undefined) throw unpinned('--workload-token', "the workload's JWT");
    return { kind: 'workload', tokenFile, issuer };
  }
  if (clientSecret === undefined && keyFile === undefined) {
    if (clientId !== undefined)
      throw new UsageError(
        "--client-id needs the client's secret (PARLEY_CLIENT_SECRET, or --client-secret) or its private key (--client-key <file>)",
      );
    if (issuer !== undefined) throw new UsageError('--issuer goes with --client-id or --workload-token');
    return undefined;
  }
  if (clientId === undefined)
    throw new UsageError('--client-secret and --client-key need --client-id (or PARLEY_CLIENT_ID)');
  if (clientSecret !== undefined && keyFile !== undefined)
    throw new UsageError('give the client a secret or a private key (--client-key), not both');
  if (clientSecret !== undefined && issuer === undefined)
    throw unpinned('--client-id', "the client's secret");
  return {
    kind: 'client',
    clientId,
    ...(clientSecret !== undefined && { clientSecret }),
    ...(keyFile !== undefined && { keyFile }),
    ...(issuer !== undefined && { issuer }),
  };
}

/**
 * A credential anyone who receives it can use, with no authorization server pinned: the MCP server
 * names the one it goes to, and a hostile server would name its own.
 */
function unpinned(flag: string, what: string): UsageError {
  return new UsageError(
    `${flag} sends ${what} to the authorization server the MCP server names; pin the one it was issued by ` +
      'with --issuer <url> (or PARLEY_ISSUER), so that a server naming another never receives it',
  );
}
