import {
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthClientInformationFull,
  type OAuthClientMetadata,
  registerClient,
} from '@modelcontextprotocol/client';
import type * as oauth from 'oauth4webapi';
import { messageOf } from './discovery.js';
import { SignInError } from './sign-in-error.js';
import type { StoredClient, TokenEndpointAuthMethod } from './store.js';

/** A client registered beforehand with an authorization server (its id, and its secret if any). */
export interface PreRegisteredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Default: `client_secret_basic` with a secret (or what the server supports), `none` without. */
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
}

/** How this client identifies itself to authorization servers it was not registered with. */
export interface RegistrationSettings {
  readonly redirectUri: string;
  readonly clientName: string;
  /** `native` for apps on the person's device (loopback redirect), `web` for a page served by a host. */
  readonly applicationType: 'native' | 'web';
  /** An HTTPS URL serving this client's metadata document; used where the server supports it. */
  readonly clientMetadataUrl?: string;
  /** Clients registered beforehand, by issuer identifier. */
  readonly preRegistered?: Readonly<Record<string, PreRegisteredClient>>;
}

/**
 * The client to use with an authorization server, in the MCP specification's order: one
 * registered beforehand for this issuer; a Client ID Metadata Document when the server supports
 * them; Dynamic Client Registration (RFC 7591) with `application_type`. Nothing else is tried.
 */
export async function obtainClient(
  as: oauth.AuthorizationServer,
  settings: RegistrationSettings,
  fetchFn: FetchLike,
): Promise<StoredClient> {
  const preRegistered = settings.preRegistered?.[as.issuer];
  if (preRegistered !== undefined) {
    return {
      clientId: preRegistered.clientId,
      ...(preRegistered.clientSecret !== undefined && { clientSecret: preRegistered.clientSecret }),
      tokenEndpointAuthMethod:
        preRegistered.tokenEndpointAuthMethod ?? secretMethod(as, preRegistered.clientSecret !== undefined),
    };
  }
  if (as.client_id_metadata_document_supported === true && settings.clientMetadataUrl !== undefined) {
    return { clientId: settings.clientMetadataUrl, tokenEndpointAuthMethod: 'none' };
  }
  if (as.registration_endpoint === undefined) {
    throw new SignInError(
      `The authorization server ${as.issuer} does not accept new clients (no registration endpoint${settings.clientMetadataUrl === undefined ? ', and no client metadata document URL is configured' : ''}); register a client with it and pass its id as a pre-registered client`,
    );
  }
  return register(as, settings, fetchFn);
}

async function register(
  as: oauth.AuthorizationServer,
  settings: RegistrationSettings,
  fetchFn: FetchLike,
): Promise<StoredClient> {
  const wanted = preferredMethod(as);
  const clientMetadata = {
    client_name: settings.clientName,
    redirect_uris: [settings.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: wanted,
    application_type: settings.applicationType,
  } satisfies OAuthClientMetadata & { application_type: string };
  let registered: OAuthClientInformationFull;
  try {
    // The SDK's registration accepts what real servers send (oauth4webapi insists on
    // client_secret_expires_at, which many leave out).
    registered = await registerClient(as.issuer, {
      metadata: as as unknown as AuthorizationServerMetadata,
      clientMetadata,
      fetchFn,
    });
  } catch (error) {
    throw new SignInError(
      `Registering with the authorization server ${as.issuer} failed: ${messageOf(error)}`,
      {
        cause: error,
      },
    );
  }
  const secret = typeof registered.client_secret === 'string' ? registered.client_secret : undefined;
  const method = registered.token_endpoint_auth_method;
  return {
    clientId: registered.client_id,
    ...(secret !== undefined && { clientSecret: secret }),
    tokenEndpointAuthMethod: isKnownMethod(method) ? method : secretMethod(as, secret !== undefined),
  };
}

/** `none` (a public client) where the server allows it, else the secret method it supports. */
function preferredMethod(as: oauth.AuthorizationServer): TokenEndpointAuthMethod {
  const supported = as.token_endpoint_auth_methods_supported;
  if (supported === undefined || supported.includes('none')) return 'none';
  return secretMethod(as, true);
}

function secretMethod(as: oauth.AuthorizationServer, hasSecret: boolean): TokenEndpointAuthMethod {
  if (!hasSecret) return 'none';
  const supported = as.token_endpoint_auth_methods_supported;
  // RFC 8414: an absent list means client_secret_basic.
  if (supported === undefined || supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

function isKnownMethod(method: unknown): method is TokenEndpointAuthMethod {
  return method === 'client_secret_basic' || method === 'client_secret_post' || method === 'none';
}
