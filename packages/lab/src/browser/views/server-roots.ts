import { el } from '@parley/renderer/parts';
import type { ServerView } from '../../protocol.js';

/** The roots declared to a server, as the server panel lists them (names and URIs are the person's own). */
export function serverRoots(server: ServerView): HTMLElement {
  const roots = server.roots ?? [];
  if (roots.length === 0) return el('div', { class: 'server-roots' }, el('p', null, 'Roots: none declared.'));
  return el(
    'div',
    { class: 'server-roots' },
    el('p', null, `Roots declared (${roots.length}):`),
    el(
      'ul',
      null,
      ...roots.map((root) => el('li', null, root.name ? `${root.name} ` : '', el('code', null, root.uri))),
    ),
  );
}
