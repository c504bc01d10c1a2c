import type { Store } from '../db.js';
import { html, page } from './html.js';
import type { WebSessions } from './session.js';

/** `GET /`: the store's front page: who is signed in, and their returns and flights. */
export function homeRoute(store: Store, sessions: WebSessions) {
  return (request: Request): Response | undefined => {
    if (new URL(request.url).pathname !== '/' || request.method !== 'GET') return undefined;
    const session = sessions.current(request);
    const user = session && store.user(session.user);
    if (!session || !user) {
      return page(
        'Welcome',
        html`<h1>Welcome to Brightgrid</h1><p><a href="/signin">Sign in</a> to see your orders.</p>`,
      );
    }
    const returns = store.returns(user.name);
    const flights = store.flights(user.name);
    const link = store.storeLink(user.name);
    return page(
      'Your account',
      html`<h1>Hello, ${user.displayName}</h1>
<p class="muted">Signed in as ${user.name}.${link ? html` Connected to ${link.client} since ${link.linkedAt.slice(0, 10)}.` : ''}</p>
<h2>Returns</h2>
${returns.length === 0 ? html`<p class="muted">None yet.</p>` : html`<ul>${returns.map((r) => html`<li>#${r.id} ${r.reason}: ${r.boxes} box(es), pickup ${r.pickupDate}</li>`)}</ul>`}
<h2>Flights</h2>
${flights.length === 0 ? html`<p class="muted">None yet.</p>` : html`<ul>${flights.map((f) => html`<li>#${f.id} ${f.city} on ${f.date}</li>`)}</ul>`}
<form method="post" action="/signout"><input type="hidden" name="csrf" value="${session.csrf}"><button class="secondary">Sign out</button></form>`,
    );
  };
}
