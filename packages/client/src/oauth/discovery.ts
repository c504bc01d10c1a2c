import {
  buildDiscoveryUrls,
  checkResourceAllowed,
  discoverOAuthProtectedResourceMetadata,
  type FetchLike,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/client';
import * as oauth from 'oauth4webapi';
import { SignInError } from './sign-in-error.js';

/** What a protected server says about itself (RFC 9728), checked against the URL the client uses. */
export interface ProtectedResource {
  /** The resource identifier exactly as published; it is sent as the `resource` parameter. */
  readonly resource: string;
  readonly issuer: string;
  readonly scopesSupported?: readonly string[];
  /** `dpop_bound_access_tokens_required`: the server accepts only DPoP-bound tokens (RFC 9449). */
  readonly dpopRequired?: boolean;
}

/**
 * Reads the server's protected resource metadata: from the `resource_metadata` URL of its
 * challenge when it gave one, else from the well-known locations (path-based first, then root).
 * The metadata must describe the server being connected to, and name an authorization server.
 */
export async function discoverResource(
  server: URL,
  resourceMetadataUrl: URL | undefined,
  fetchFn: FetchLike,
): Promise<ProtectedResource> {
  let metadata: OAuthProtectedResourceMetadata;
  try {
    metadata = await discoverOAuthProtectedResourceMetadata(
      server,
      resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl },
      fetchFn,
    );
  } catch (error) {
    throw new SignInError(
      `${server.href} asks for sign-in but its protected resource metadata could not be read (${messageOf(error)}); the server must publish it (RFC 9728)`,
      { cause: error, server: server.href },
    );
  }
  if (!checkResourceAllowed({ requestedResource: server, configuredResource: metadata.resource })) {
    throw new SignInError(
      `The protected resource metadata of ${server.href} is for ${metadata.resource}, not for this server; refusing to sign in (it may be an attempt to obtain a token for another server)`,
      { server: server.href },
    );
  }
  const issuer = metadata.authorization_servers?.[0];
  if (issuer === undefined) {
    throw new SignInError(
      `The protected resource metadata of ${server.href} names no authorization server; the server must list one in authorization_servers`,
      { server: server.href },
    );
  }
  return {
    resource: metadata.resource,
    issuer,
    ...(metadata.scopes_supported !== undefined && { scopesSupported: metadata.scopes_supported }),
    ...(metadata.dpop_bound_access_tokens_required === true && { dpopRequired: true }),
  };
}

/**
 * Reads the authorization server's metadata from the well-known locations RFC 8414 and OpenID
 * Connect Discovery define, in the order the MCP specification gives. The document's `issuer`
 * must be exactly the issuer the metadata was looked up for.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  fetchFn: FetchLike,
): Promise<oauth.AuthorizationServer> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch (error) {
    throw new SignInError(`The authorization server ${JSON.stringify(issuer)} is not a URL`, {
      cause: error,
    });
  }
  const tried: string[] = [];
  for (const { url } of buildDiscoveryUrls(issuerUrl)) {
    const response = await fetchFn(url, { headers: { accept: 'application/json' } }).catch(
      (error: unknown) => {
        throw new SignInError(
          `The authorization server ${issuer} could not be reached: ${messageOf(error)}`,
          {
            cause: error,
          },
        );
      },
    );
    if (response.status >= 400 && response.status < 500) {
      tried.push(url.href);
      continue;
    }
    try {
      return await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (error) {
      throw new SignInError(
        `The authorization server metadata at ${url.href} is not valid for issuer ${issuer}: ${messageOf(error)}; refusing to sign in`,
        { cause: error },
      );
    }
  }
  throw new SignInError(
    `The authorization server ${issuer} publishes no metadata (tried ${tried.join(', ')}); it must support RFC 8414 or OpenID Connect Discovery`,
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
