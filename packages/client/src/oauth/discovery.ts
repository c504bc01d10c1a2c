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
 * challenge when it gave one on its own origin, else from the well-known locations of its origin
 * (path-based first, then root). The metadata must describe the server being connected to, and
 * name an authorization server.
 *
 * Only the server's own origin is asked, redirects included: metadata about a resource (which
 * must be exactly this server, RFC 9728 §3.3) is published where the resource is, and a challenge
 * naming any other address would otherwise send the person's client, inside their network, to
 * wherever the server likes (RFC 9728 §7.7).
 */
export async function discoverResource(
  server: URL,
  resourceMetadataUrl: URL | undefined,
  fetchFn: FetchLike,
): Promise<ProtectedResource> {
  const named = resourceMetadataUrl?.origin === server.origin ? resourceMetadataUrl : undefined;
  const ignored =
    resourceMetadataUrl !== undefined && named === undefined
      ? `; its challenge named metadata at ${resourceMetadataUrl.origin}, another origin, which is not asked`
      : '';
  let metadata: OAuthProtectedResourceMetadata;
  try {
    metadata = await discoverOAuthProtectedResourceMetadata(
      server,
      named === undefined ? {} : { resourceMetadataUrl: named },
      withinOrigin(server.origin, fetchFn),
    );
  } catch (error) {
    throw new SignInError(
      `${server.href} asks for sign-in but its protected resource metadata could not be read (${messageOf(error)})${ignored}; the server must publish it on its own origin (RFC 9728)`,
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

/** Redirects a fetch may follow, all within one origin. */
const MAX_REDIRECTS = 5;

/** A fetch that follows redirects only within `origin`, and refuses to be sent anywhere else. */
function withinOrigin(origin: string, fetchFn: FetchLike): FetchLike {
  return async (url, init) => {
    let next = new URL(url);
    for (let hop = 0; ; hop++) {
      if (next.origin !== origin) throw new Error(`redirected to another origin (${next.origin})`);
      const response = await fetchFn(next, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      next = new URL(location, next);
    }
  };
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
