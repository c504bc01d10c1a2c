import * as oauth from 'oauth4webapi';
import { newSecret } from '../secrets.js';
import { readCookies } from './cookies.js';
import { html, page } from './html.js';
import type { WebSessions } from './session.js';

/** The store site as a client of Brightgrid ID (registered there beforehand). */
export interface IdentityProvider {
  /** Brightgrid ID's issuer identifier, e.g. `http://127.0.0.1:4101`. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Brightgrid's credentials at the introspection endpoint, when access tokens are opaque. */
  readonly introspection?: { readonly clientId: string; readonly clientSecret: string };
}

const STATE_COOKIE = 'brightgrid_signin_state';
/** How long a person may take on Brightgrid ID's pages. */
const PENDING_MS = 10 * 60_000;

interface Pending {
  readonly nonce: string;
  readonly verifier: string;
  readonly returnTo: string;
  readonly expires: number;
}

/**
 * The store's sign-in through Brightgrid ID (OpenID Connect, the authorization code flow with
 * PKCE): `GET /signin?return_to=…` sends the browser to Brightgrid ID, `GET /signin/callback`
 * checks the answer (state bound to this browser by a cookie, `iss`, the ID token and its nonce)
 * and starts the store session for the ID token's subject: the same subject MCP access tokens
 * carry, so the connect page's same-user check compares one identity.
 */
export function oidcSignInRoutes(identity: IdentityProvider, sessions: WebSessions) {
  const redirectUri = `${sessions.origin}/signin/callback`;
  const client: oauth.Client = { client_id: identity.clientId };
  const auth = oauth.ClientSecretBasic(identity.clientSecret);
  const insecure = { [oauth.allowInsecureRequests]: new URL(identity.issuer).protocol === 'http:' };
  const pending = new Map<string, Pending>();
  let metadata: Promise<oauth.AuthorizationServer> | undefined;
  const server = () => {
    metadata ??= oauth
      .discoveryRequest(new URL(identity.issuer), { algorithm: 'oidc', ...insecure })
      .then((response) => oauth.processDiscoveryResponse(new URL(identity.issuer), response))
      .catch((error: unknown) => {
        metadata = undefined;
        throw error;
      });
    return metadata;
  };
  const redirect = (location: string, cookie?: string) =>
    new Response(null, {
      status: 303,
      headers: { location, 'cache-control': 'no-store', ...(cookie && { 'set-cookie': cookie }) },
    });
  const failed = (message: string) =>
    page(
      'Not signed in',
      html`<h1>Not signed in</h1><p class="error">${message}</p><p><a href="/signin">Try again</a></p>`,
      {
        status: 400,
        headers: { 'set-cookie': sessions.cookie(STATE_COOKIE, '', 0) },
      },
    );

  return async (request: Request): Promise<Response | undefined> => {
    const url = new URL(request.url);
    if (url.pathname === '/signin' && request.method === 'POST') return redirect('/signin');
    if (url.pathname === '/signin' && request.method === 'GET') {
      const returnTo = sessions.localPath(url.searchParams.get('return_to'));
      if (sessions.current(request)) return redirect(returnTo);
      const as = await server();
      const state = newSecret();
      const entry: Pending = {
        nonce: oauth.generateRandomNonce(),
        verifier: oauth.generateRandomCodeVerifier(),
        returnTo,
        expires: Date.now() + PENDING_MS,
      };
      for (const [key, old] of pending) if (old.expires < Date.now()) pending.delete(key);
      pending.set(state, entry);
      const target = new URL(as.authorization_endpoint!);
      target.search = new URLSearchParams({
        client_id: identity.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid profile',
        state,
        nonce: entry.nonce,
        code_challenge: await oauth.calculatePKCECodeChallenge(entry.verifier),
        code_challenge_method: 'S256',
      }).toString();
      return redirect(target.href, sessions.cookie(STATE_COOKIE, state, PENDING_MS / 1000));
    }
    if (url.pathname === '/signin/callback' && request.method === 'GET') {
      const state = readCookies(request).get(STATE_COOKIE);
      const entry = state === undefined ? undefined : pending.get(state);
      if (state === undefined || entry === undefined || entry.expires < Date.now()) {
        return failed('This sign-in expired or was started in another browser.');
      }
      pending.delete(state);
      const as = await server();
      try {
        const parameters = oauth.validateAuthResponse(as, client, url, state);
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          auth,
          parameters,
          redirectUri,
          entry.verifier,
          insecure,
        );
        const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
          expectedNonce: entry.nonce,
          requireIdToken: true,
        });
        const subject = oauth.getValidatedIdTokenClaims(result)?.sub;
        if (subject === undefined) return failed('Brightgrid ID did not say who you are.');
        return redirect(entry.returnTo, sessions.start(subject));
      } catch (error) {
        const reason =
          error instanceof oauth.AuthorizationResponseError
            ? (error.error_description ?? error.error)
            : 'Brightgrid ID’s answer was not valid';
        return failed(`Sign-in was refused: ${reason}.`);
      }
    }
    return undefined;
  };
}
