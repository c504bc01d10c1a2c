import type { Store } from '../db.js';
import { newSecret } from '../secrets.js';
import { readCookies } from './cookies.js';
import { html, page } from './html.js';
import { readForm } from './read-form.js';
import type { WebSessions } from './session.js';
import { type SignInLimiter, SignInThrottle } from './sign-in-throttle.js';

const CSRF_COOKIE = 'brightgrid_signin_csrf';

function signInPage(csrf: string, returnTo: string, error?: string) {
  return html`<h1>Sign in to Brightgrid</h1>
<p class="muted">Sign in with your store account. Your password stays between you and Brightgrid.</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/signin">
  <input type="hidden" name="csrf" value="${csrf}">
  <input type="hidden" name="return_to" value="${returnTo}">
  <label for="username">User name</label>
  <input id="username" name="username" autocomplete="username" required autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>`;
}

/**
 * The store's own sign-in page: `GET /signin?return_to=…` shows it, `POST /signin` checks the
 * password (scrypt) and sets the session cookie, then goes back to `return_to` on this site only.
 * The form is protected by a double-submit token and an Origin check; `POST /signout` ends the session.
 * Failed sign-ins are throttled per user name and per client address (`client.address`), in this
 * process or, with a `RedisSignInThrottle`, across a fleet.
 */
export function signInRoutes(
  store: Store,
  sessions: WebSessions,
  throttle: SignInLimiter = new SignInThrottle(),
) {
  const show = (returnTo: string, status = 200, error?: string, headers: Record<string, string> = {}) => {
    const csrf = newSecret();
    return page('Sign in', signInPage(csrf, returnTo, error), {
      status,
      headers: { 'set-cookie': sessions.cookie(CSRF_COOKIE, csrf, 600), ...headers },
    });
  };
  const redirect = (location: string, cookie?: string) =>
    new Response(null, {
      status: 303,
      headers: { location, 'cache-control': 'no-store', ...(cookie && { 'set-cookie': cookie }) },
    });

  return async (request: Request, client: { address?: string } = {}): Promise<Response | undefined> => {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === '/signin' && request.method === 'GET') {
      const returnTo = sessions.localPath(searchParams.get('return_to'));
      return sessions.current(request) ? redirect(returnTo) : show(returnTo);
    }
    if (pathname === '/signin' && request.method === 'POST') {
      const form = await readForm(request);
      if (form instanceof Response) return form;
      const returnTo = sessions.localPath(form.get('return_to')?.toString() ?? null);
      const expected = readCookies(request).get(CSRF_COOKIE);
      if (!sessions.isSameSitePost(request, form.get('csrf'), expected)) {
        return show(returnTo, 403, 'This sign-in form expired or came from another site. Please try again.');
      }
      const name = String(form.get('username') ?? '');
      const wait = await throttle.retryAfter(name, client.address);
      if (wait > 0) {
        return show(returnTo, 429, `Too many failed sign-ins. Try again in ${wait} seconds.`, {
          'retry-after': String(wait),
        });
      }
      const user = await store.checkPassword(name, String(form.get('password') ?? ''));
      if (!user) {
        await throttle.failed(name, client.address);
        return show(returnTo, 401, 'Wrong user name or password.');
      }
      return redirect(returnTo, sessions.start(user.name));
    }
    if (pathname === '/signout' && request.method === 'POST') {
      const form = await readForm(request);
      if (form instanceof Response) return form;
      const current = sessions.current(request);
      if (!sessions.isSameSitePost(request, form.get('csrf'), current?.csrf)) return redirect('/');
      return redirect('/', sessions.end(request));
    }
    return undefined;
  };
}
