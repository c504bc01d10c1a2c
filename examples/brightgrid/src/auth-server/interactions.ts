import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Store } from '../db.js';
import { html, page } from '../web/html.js';
import { MAX_FORM_BYTES } from '../web/read-form.js';
import { type SignInLimiter, SignInThrottle } from '../web/sign-in-throttle.js';
import { isLoopbackRedirect } from './app-names.js';

/** What the consent page says each scope lets an app do. */
const SCOPE_WORDS: Record<string, string> = {
  store: 'use your Brightgrid store account (book returns and flights, read your orders)',
  offline_access: 'stay signed in when you are away',
  openid: 'know who you are',
  profile: 'see your name',
  email: 'see your email address',
};

/**
 * The sign-in and consent pages of Brightgrid ID (`/interaction/:uid`): the person signs in with
 * their store user name and password, then allows (or denies) what the app asked for. Each page
 * belongs to one authorization request: oidc-provider checks the interaction cookie matches it.
 * Failed passwords are throttled per user name and per address. Both pages say where the browser
 * goes next (the redirect's host) and mark an app that registered itself as unverified: its name
 * is whatever it chose; `verified` lists the apps Brightgrid ID was configured with.
 */
export function interactionRoutes(
  provider: Provider,
  store: Store,
  verified: ReadonlySet<string> = new Set(),
  throttle: SignInLimiter = new SignInThrottle(),
) {
  const issuerOrigin = new URL(provider.issuer).origin;
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/interaction\/([\w-]+)(?:\/(login|consent))?$/.exec(url.pathname);
    if (match === null) return false;
    let details: Awaited<ReturnType<Provider['interactionDetails']>>;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      await send(
        res,
        page(
          'Sign-in expired',
          html`<p class="error">This sign-in expired. Go back to the app and start again.</p>`,
          { status: 400 },
        ),
      );
      return true;
    }
    if (details.uid !== match[1]) {
      await send(
        res,
        page('Sign-in expired', html`<p class="error">This sign-in page is not the current one.</p>`, {
          status: 400,
        }),
      );
      return true;
    }
    const clientId = String(details.params.client_id ?? '');
    const client = await provider.Client.find(clientId);
    const app: App = {
      name: client?.clientName ?? clientId,
      verified: verified.has(clientId),
      destination: destinationOf(details.params.redirect_uri),
    };
    const redirectOrigin = originOf(details.params.redirect_uri);
    const show = (body: ReturnType<typeof html>, status = 200) =>
      send(res, withFormAction(page('Brightgrid ID', body, { status }), redirectOrigin));

    const action = match[2];
    if (req.method === 'GET' && action === undefined) {
      if (details.prompt.name === 'login') await show(loginPage(details.uid, app));
      else {
        const scopes = requestedScopes(details.prompt.details);
        // Clients allowed the refresh_token grant stay signed in (see issueRefreshToken).
        if (client?.grantTypes?.includes('refresh_token')) scopes.push('offline_access');
        await show(consentPage(details.uid, app, [...new Set(scopes)]));
      }
      return true;
    }
    if (req.method !== 'POST' || action === undefined || !sameOrigin(req, issuerOrigin)) {
      await show(html`<p class="error">This form came from another site; nothing was done.</p>`, 403);
      return true;
    }
    const form = await readNodeForm(req);
    if (form === undefined) {
      await show(html`<p class="error">Send this form from its page.</p>`, 400);
      return true;
    }
    if (action === 'login') {
      const name = form.get('username') ?? '';
      const address = req.socket.remoteAddress;
      const wait = await throttle.retryAfter(name, address);
      if (wait > 0) {
        await show(
          loginPage(details.uid, app, `Too many failed sign-ins. Try again in ${wait} seconds.`),
          429,
        );
        return true;
      }
      const user = await store.checkPassword(name, form.get('password') ?? '');
      if (user === undefined) {
        await throttle.failed(name, address);
        await show(loginPage(details.uid, app, 'Wrong user name or password.'), 401);
        return true;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: user.name } },
        { mergeWithLastSubmission: false },
      );
      return true;
    }
    if (form.get('decision') !== 'allow') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person did not allow access' },
        { mergeWithLastSubmission: false },
      );
      return true;
    }
    const accountId = details.session?.accountId;
    if (accountId === undefined) {
      await show(html`<p class="error">Sign in first.</p>`, 400);
      return true;
    }
    const grant =
      details.grantId === undefined
        ? new provider.Grant({ accountId, clientId })
        : ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId }));
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return true;
  };
}

/** The app a sign-in is for, as the pages present it. */
interface App {
  /** The name it registered with (its own choice unless it is verified). */
  readonly name: string;
  /** Configured into Brightgrid ID; anything else registered itself. */
  readonly verified: boolean;
  /** Where the browser goes after the person chooses. */
  readonly destination: Destination | undefined;
}

/** The redirect's host, and whether it is the person's own computer (a loopback address). */
interface Destination {
  readonly host: string;
  readonly thisComputer: boolean;
}

function appNotice(app: App) {
  const where =
    app.destination === undefined
      ? ''
      : html`<p>After you choose, your browser goes to <strong class="destination">${app.destination.host}</strong>${
          app.destination.thisComputer ? ' (an app on this computer)' : ''
        }. Go on only if you started this sign-in in that app.</p>`;
  const unverified = app.verified
    ? ''
    : html`<p class="warning" role="note"><strong>Unverified app.</strong> It registered itself with Brightgrid ID and chose the name “${app.name}” itself: nobody checked who made it.</p>`;
  return html`${unverified}${where}`;
}

function loginPage(uid: string, app: App, error?: string) {
  return html`<h1>Sign in to Brightgrid ID</h1>
<p class="muted"><strong>${app.name}</strong> asks you to sign in with your Brightgrid store account.</p>
${appNotice(app)}
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/interaction/${uid}/login">
  <label for="username">User name</label>
  <input id="username" name="username" autocomplete="username" required autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>`;
}

function consentPage(uid: string, app: App, scopes: string[]) {
  return html`<h1>Allow ${app.name}?</h1>
${appNotice(app)}
<p><strong>${app.name}</strong> asks to:</p>
<ul>${scopes.map((scope) => html`<li>${SCOPE_WORDS[scope] ?? scope}</li>`)}</ul>
<form method="post" action="/interaction/${uid}/consent">
  <button type="submit" name="decision" value="allow">Allow</button>
  <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`;
}

function requestedScopes(details: Record<string, unknown>): string[] {
  const oidc = (details.missingOIDCScope as string[] | undefined) ?? [];
  const resource = Object.values(
    (details.missingResourceScopes as Record<string, string[]> | undefined) ?? {},
  ).flat();
  return [...new Set([...resource, ...oidc])];
}

function destinationOf(value: unknown): Destination | undefined {
  try {
    if (typeof value !== 'string') return undefined;
    const url = new URL(value);
    return {
      host: url.host,
      thisComputer: url.protocol === 'http:' && isLoopbackRedirect(value),
    };
  } catch {
    return undefined;
  }
}

function originOf(value: unknown): string | undefined {
  try {
    return typeof value === 'string' ? new URL(value).origin : undefined;
  } catch {
    return undefined;
  }
}

/** The form's redirects end at the app's redirect URI; the page's CSP must allow that origin. */
function withFormAction(response: Response, redirectOrigin: string | undefined): Response {
  const csp = response.headers.get('content-security-policy') ?? '';
  if (redirectOrigin !== undefined)
    response.headers.set(
      'content-security-policy',
      csp.replace("form-action 'self'", `form-action 'self' ${redirectOrigin}`),
    );
  return response;
}

/** A form POST from this site's own page (Origin, else Sec-Fetch-Site). */
function sameOrigin(req: IncomingMessage, issuerOrigin: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') return origin === issuerOrigin;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

async function readNodeForm(req: IncomingMessage): Promise<Map<string, string> | undefined> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
    if (!form.has(name)) form.set(name, value);
  }
  return form;
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  res.end(Buffer.from(await response.arrayBuffer()));
}
