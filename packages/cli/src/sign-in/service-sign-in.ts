import { readFile, stat } from 'node:fs/promises';
import {
  type ClientPrivateKey,
  clientCredentials,
  fileStore,
  type Grant,
  type OAuthSession,
  oauthSession,
  workloadIdentity,
} from '@parley/client/oauth';
import { UsageError } from '../exit-codes.js';
import type { ServiceCredentials } from './service-credentials.js';
import { serviceTokenFilePath } from './token-file.js';

/**
 * Signs `parley` in as a service, with no browser: the grant its credentials call for, whenever a
 * server asks. Its tokens (and DPoP keys) are kept apart from people's, in a file only the user can
 * read; the secret and the private key are never written anywhere.
 */
export async function serviceSignIn(
  credentials: ServiceCredentials,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): Promise<{ readonly session: OAuthSession; close(): Promise<void> }> {
  const session = oauthSession({
    grant: await grantFor(credentials),
    store: fileStore(serviceTokenFilePath(env)),
    onWarning: (message) => say(`parley: warning: ${message}`),
  });
  return { session, close: async () => {} };
}

async function grantFor(credentials: ServiceCredentials): Promise<Grant> {
  const issuer = credentials.issuer === undefined ? {} : { issuer: credentials.issuer };
  if (credentials.kind === 'workload') {
    // Platforms rotate these: read the file at every sign-in.
    return workloadIdentity({ assertion: () => readFile(credentials.tokenFile, 'utf8'), ...issuer });
  }
  if (credentials.keyFile !== undefined) {
    return clientCredentials({
      clientId: credentials.clientId,
      privateKey: await readKeyFile(credentials.keyFile),
      ...issuer,
    });
  }
  return clientCredentials({
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret!,
    ...issuer,
  });
}

/**
 * A private key file, PEM or JWK, that only its owner can read (as ssh insists: a key others can
 * read is not a secret any more).
 */
async function readKeyFile(path: string): Promise<ClientPrivateKey> {
  let mode: number;
  let text: string;
  try {
    mode = (await stat(path)).mode;
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--client-key: cannot read ${path} (${(error as NodeJS.ErrnoException).code})`);
  }
  if ((mode & 0o077) !== 0) {
    throw new UsageError(
      `--client-key: ${path} can be read by other users; make it yours alone (chmod 600 ${path})`,
    );
  }
  if (!text.trimStart().startsWith('{')) return text;
  try {
    return JSON.parse(text) as ClientPrivateKey;
  } catch {
    throw new UsageError(`--client-key: ${path} is neither a PEM key nor a JWK`);
  }
}
