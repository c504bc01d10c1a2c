import * as oauth from 'oauth4webapi';
import { type Grant, type GrantRequest, JWT_BEARER, requireGrantType, tokenRequest } from './grant.js';
import { SignInError } from './sign-in-error.js';

/** A JWT, or a function that gives the current one (platforms rotate them: read it each time). */
export type AssertionSource = string | (() => string | Promise<string>);

/** What `workloadIdentity()` needs: the workload's JWT, and optionally a client id and an issuer to pin. */
export interface WorkloadIdentityOptions {
  /**
   * The workload's JWT, issued by its platform (a Kubernetes service account token, a SPIFFE
   * JWT-SVID, a CI job's OIDC token) for the authorization server.
   */
  readonly assertion: AssertionSource;
  /** A client id to send along, when the authorization server wants one. Default: none. */
  readonly clientId?: string;
  /**
   * The only authorization server the assertion is sent to. Recommended: without it, the first one
   * a server names is pinned, with a warning.
   */
  readonly issuer?: string;
}

/**
 * Signs in as a workload with the JWT its platform gave it: the JWT bearer grant (RFC 7523 §2.1,
 * the MCP workload identity federation extension). No client registration and no stored secret:
 * the authorization server trusts the JWT's issuer. A refusal (`invalid_grant`, `invalid_scope`,
 * `unauthorized_client`) is reported as it is; the request is not retried with another grant.
 *
 * @example
 * import { readFile } from 'node:fs/promises';
 * import { oauthSession, workloadIdentity } from '@parley/client/oauth';
 *
 * const session = oauthSession({
 *   grant: workloadIdentity({
 *     assertion: () => readFile('/var/run/secrets/tokens/mcp-token', 'utf8'),
 *   }),
 * });
 */
export function workloadIdentity(options: WorkloadIdentityOptions): Grant {
  if (typeof options.assertion !== 'string' && typeof options.assertion !== 'function') {
    throw new TypeError('workloadIdentity() needs the assertion: the JWT, or a function that reads it');
  }
  return {
    kind: 'jwt_bearer',
    clientId: options.clientId,
    issuer: options.issuer,
    async request(request: GrantRequest) {
      requireGrantType(request.as, JWT_BEARER, 'the JWT bearer grant');
      const assertion = await readAssertion(options.assertion, 'workload JWT');
      const clientId = options.clientId;
      // oauth4webapi needs a client id; without one, nothing identifies the client but the JWT.
      const client: oauth.Client = { client_id: clientId ?? 'workload' };
      const auth: oauth.ClientAuth = clientId === undefined ? () => {} : oauth.None();
      const parameters = new URLSearchParams({ assertion, resource: request.resource });
      if (request.scope !== undefined) parameters.set('scope', request.scope);
      const tokens = await tokenRequest(
        request,
        'workload JWT (JWT bearer grant)',
        (send) => oauth.genericTokenEndpointRequest(request.as, client, auth, JWT_BEARER, parameters, send),
        client,
      );
      return { client: { clientId: clientId ?? '', tokenEndpointAuthMethod: 'none' }, tokens };
    },
  };
}

/** Reads a JWT from its source; it must look like one (three base64url parts). */
export async function readAssertion(source: AssertionSource, what: string): Promise<string> {
  let value: string;
  try {
    value = (typeof source === 'function' ? await source() : source).trim();
  } catch (error) {
    throw new SignInError(`The ${what} could not be read: ${(error as Error).message}`, { cause: error });
  }
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(value)) {
    throw new SignInError(`The ${what} is not a JWT (three base64url parts separated by dots)`);
  }
  return value;
}
