import type { FlowPage } from '@parley/server';
import type { Store } from '../db.js';
import { html, page } from './html.js';
import { readForm } from './read-form.js';
import type { WebSessions } from './session.js';

/** What the page completes a store-account flow with (JSON the tool receives; never a credential). */
export type ConnectResult =
  | {
      readonly connected: true;
      readonly account: string;
      readonly displayName: string;
      readonly linkedAt: string;
    }
  | { readonly connected: false };

function clientName(data: unknown): string {
  const client = (data as { client?: unknown } | null)?.client;
  return typeof client === 'string' && client.length > 0 ? client.slice(0, 80) : 'An MCP app';
}

/**
 * The store's connect page for the `store-account` flow. The kit serves it only after it checked that
 * the browser's signed-in store user is the user who made the call; the page asks that person to
 * allow the connection (a same-site POST with the session's anti-CSRF token) and records the link.
 */
export function connectPage(store: Store, sessions: WebSessions): FlowPage {
  return async (request, flow, { complete }) => {
    const session = sessions.current(request);
    const user = store.user(flow.principal);
    if (!session || !user)
      return page('Sign in again', html`<p>Your sign-in ended. Go back and try again.</p>`, { status: 401 });
    const client = clientName(flow.data);

    if (request.method === 'POST') {
      const form = await readForm(request);
      if (form instanceof Response) return form;
      if (!sessions.isSameSitePost(request, form.get('csrf'), session.csrf)) {
        return page(
          'Not connected',
          html`<p class="error">This form expired or came from another site; nothing was changed.</p>`,
          {
            status: 403,
          },
        );
      }
      if (form.get('decision') !== 'allow') {
        await complete({ connected: false });
        return page(
          'Not connected',
          html`<h1>Not connected</h1><p>${client} was not given access. You can close this tab.</p>`,
        );
      }
      const link = store.linkStoreAccount(user.name, client);
      const result: ConnectResult = {
        connected: true,
        account: user.name,
        displayName: user.displayName,
        linkedAt: link.linkedAt,
      };
      await complete(result);
      return page(
        'Connected',
        html`<h1>Connected</h1><p>${client} can now use your Brightgrid account <strong>${user.name}</strong>.</p>
<p>Go back to your app and choose <strong>I've finished</strong>.</p>`,
      );
    }

    return page(
      'Connect your store account',
      html`<h1>Connect your store account</h1>
<p><strong>${client}</strong> asks to use your Brightgrid account <strong>${user.name}</strong> (${user.displayName}):
to book returns and flights, and to read your orders.</p>
<p class="muted">Your password is never shared with the app.</p>
<form method="post">
  <input type="hidden" name="csrf" value="${session.csrf}">
  <button type="submit" name="decision" value="allow">Allow</button>
  <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`,
    );
  };
}
