import * as oauth from 'oauth4webapi';
import { SignInError } from './sign-in-error.js';
import type { StoredClient } from './store.js';

/**
 * The oauth4webapi client authentication for a client: its secret (HTTP Basic or in the body),
 * a JWT signed with its private key (RFC 7523 `private_key_jwt`), or none for a public client.
 * The key is passed in, never stored with the client.
 */
export function clientAuthentication(client: StoredClient, privateKey?: oauth.CryptoKey): oauth.ClientAuth {
  switch (client.tokenEndpointAuthMethod) {
    case 'client_secret_basic':
      return clientSecretBasic(client.clientId, client.clientSecret ?? '');
    case 'client_secret_post':
      return oauth.ClientSecretPost(client.clientSecret ?? '');
    case 'private_key_jwt':
      if (privateKey === undefined)
        throw new SignInError(
          `The client ${client.clientId} signs in with a private key (private_key_jwt) and none was given; pass its key`,
        );
      return oauth.PrivateKeyJwt(privateKey);
    case 'none':
      return oauth.None();
  }
}

/**
 * HTTP Basic client authentication (RFC 6749 §2.3.1): id and secret form-encoded, then base64.
 * oauth4webapi's own also escapes characters form encoding leaves alone (`-` becomes `%2D`), which
 * servers that do not decode the pair refuse; this sends them as a browser form would.
 */
function clientSecretBasic(clientId: string, clientSecret: string): oauth.ClientAuth {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  const credentials = Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64');
  return (_as, _client, _body, headers) => {
    headers.set('authorization', `Basic ${credentials}`);
  };
}
