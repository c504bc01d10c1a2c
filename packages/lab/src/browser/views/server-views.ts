import { el } from '@parley/renderer/parts';
import type { Listed, ServerView } from '../../protocol.js';
import type { CallTarget } from './call-form.js';
import { SAME_NAME_WARNING, serverPlace, sharesName } from './server-place.js';
import { serverRoots } from './server-roots.js';

const ERA_WORDS = { modern: '2026-07-28 (modern)', handshake: 'handshake (2025)' } as const;

export interface ServerActions {
  select(serverId: string): void;
  disconnect(serverId: string): void;
  /** Connects a server whose connection failed again. */
  retry(serverId: string): void;
  open(server: ServerView, target: CallTarget): void;
  read(server: ServerView, uri: string): void;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A server's display name: its title or name from server info, else what the person typed. */
export function serverLabel(server: ServerView): string {
  return server.info ? `${server.info.title || server.info.name} ${server.info.version}` : server.target;
}

function statusWords(server: ServerView): string {
  if (server.signIn !== undefined && server.status === 'connecting') return 'sign-in needed';
  if (server.status === 'ready') return server.era ? ERA_WORDS[server.era] : 'connected';
  return server.status === 'connecting' ? 'connecting…' : server.status;
}

/**
 * The server asks the person to sign in: its authorization server's address, opened in a new
 * window (only http and https addresses become a link). The window comes back to the lab.
 */
function signInPrompt(server: ServerView): HTMLElement[] {
  const signIn = server.signIn;
  if (signIn === undefined) return [];
  let url: URL;
  try {
    url = new URL(signIn.url);
  } catch {
    return [];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return [];
  return [
    el(
      'section',
      { class: 'sign-in', 'aria-label': 'Sign-in needed' },
      el('p', null, 'This server asks you to sign in at ', el('strong', null, url.host), '.'),
      el(
        'a',
        { class: 'parley-button', href: url.href, target: '_blank', rel: 'noopener noreferrer' },
        `Sign in at ${url.host}`,
      ),
      el('p', { class: 'note' }, 'Sign in in the new window; the lab continues when you are done.'),
    ),
  ];
}

/** The list of servers in the side bar. */
export function renderServerList(
  list: HTMLElement,
  servers: Iterable<ServerView>,
  selected: string | undefined,
  actions: ServerActions,
): void {
  const all = [...servers];
  list.replaceChildren(
    ...all.map((server) => {
      const pick = el(
        'button',
        { type: 'button', class: 'server-pick', 'aria-current': server.id === selected ? 'true' : undefined },
        el('span', { class: 'server-name' }, serverLabel(server)),
        el('span', { class: 'server-place' }, serverPlace(server.target)),
        sharesName(server, all) ? el('span', { class: 'same-name' }, SAME_NAME_WARNING) : null,
        el('span', { class: `server-status status-${server.status}` }, statusWords(server)),
      );
      pick.addEventListener('click', () => actions.select(server.id));
      return el('li', { 'data-server-id': server.id }, pick);
    }),
  );
}

function itemList(
  heading: string,
  items: readonly Listed[] | undefined,
  describe: (item: Listed) => { name: string; button: string; description: string; run: () => void },
): HTMLElement[] {
  if (!items || items.length === 0) return [el('h3', null, heading), el('p', { class: 'note' }, 'None.')];
  return [
    el('h3', null, `${heading} (${items.length})`),
    el(
      'ul',
      { class: 'items' },
      ...items.map((item) => {
        const about = describe(item);
        const run = el(
          'button',
          {
            type: 'button',
            class: 'parley-button parley-secondary',
            'aria-label': `${about.button} ${about.name}`,
          },
          about.button,
        );
        run.addEventListener('click', about.run);
        return el(
          'li',
          null,
          el('code', { class: 'item-name' }, about.name),
          run,
          about.description ? el('p', { class: 'description' }, about.description) : null,
        );
      }),
    ),
  ];
}

/** The selected server: who it is, which era, and its tools, prompts, resources and templates. */
export function renderServerPanel(
  panel: HTMLElement,
  server: ServerView | undefined,
  actions: ServerActions,
): void {
  if (!server) {
    panel.replaceChildren(
      el('h2', null, 'No server yet'),
      el(
        'p',
        null,
        'Connect a server above: a command line such as "node server.js", or a URL such as http://127.0.0.1:3000/mcp.',
      ),
    );
    return;
  }
  const disconnect = el('button', { type: 'button', class: 'parley-button parley-secondary' }, 'Disconnect');
  disconnect.addEventListener('click', () => actions.disconnect(server.id));
  const head = [
    el('h2', null, serverLabel(server)),
    el(
      'p',
      { class: 'server-meta' },
      `${statusWords(server)}${server.protocolVersion ? ` · protocol ${server.protocolVersion}` : ''} · `,
      el('code', null, server.target),
      ' ',
      disconnect,
    ),
    serverRoots(server),
  ];
  if (server.status === 'failed') {
    const retry = el('button', { type: 'button', class: 'parley-button parley-primary' }, 'Retry');
    retry.addEventListener('click', () => actions.retry(server.id));
    panel.replaceChildren(
      ...head,
      el('pre', { class: 'call-error', role: 'alert' }, server.error ?? 'The connection failed.'),
      el('div', { class: 'parley-actions' }, retry),
    );
    return;
  }
  if (server.status !== 'ready') {
    panel.replaceChildren(...head, ...signInPrompt(server));
    return;
  }
  panel.replaceChildren(
    ...head,
    ...itemList('Tools', server.tools, (item) => ({
      name: text(item.name),
      button: 'Call',
      description: text(item.description) || text(item.title),
      run: () => actions.open(server, { kind: 'tool', item }),
    })),
    ...itemList('Prompts', server.prompts, (item) => ({
      name: text(item.name),
      button: 'Get',
      description: text(item.description),
      run: () => actions.open(server, { kind: 'prompt', item }),
    })),
    ...itemList('Resources', server.resources, (item) => ({
      name: text(item.uri),
      button: 'Read',
      description: text(item.description) || text(item.name),
      run: () => actions.read(server, text(item.uri)),
    })),
    ...itemList('Resource templates', server.resourceTemplates, (item) => ({
      name: text(item.uriTemplate),
      button: 'Read',
      description: text(item.description) || text(item.name),
      run: () => actions.open(server, { kind: 'template', item }),
    })),
  );
}
