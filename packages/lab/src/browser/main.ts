// The lab page: connects to the lab server with the token from its own URL, mirrors the lab's
// state from the event stream, and wires the views. Nothing is stored in the browser.

import { API, type EraChoice, type LabEvent } from '../protocol.js';
import { LabApi } from './lab-api.js';
import { LabStore } from './lab-store.js';
import { renderCallForm } from './views/call-form.js';
import { CallList } from './views/call-list.js';
import { QuestionDialog } from './views/question-dialog.js';
import { RootsEditor } from './views/roots-editor.js';
import {
  renderServerList,
  renderServerPanel,
  type ServerActions,
  serverLabel,
} from './views/server-views.js';

function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function start(): void {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const api = new LabApi(token);
  const store = new LabStore();
  const status = byId<HTMLParagraphElement>('lab-status');
  const announce = (text: string) => {
    status.textContent = text;
  };
  let selected: string | undefined;
  const serverPanel = byId<HTMLElement>('server-panel');
  const callPanel = byId<HTMLElement>('call-panel');

  const startCall = async (call: object) => {
    await api.post(API.calls, call);
  };
  const actions: ServerActions = {
    select(serverId) {
      selected = serverId;
      render();
    },
    disconnect(serverId) {
      api.post(`${API.servers}/${serverId}/close`).catch((error: Error) => announce(error.message));
    },
    retry(serverId) {
      api.post(`${API.servers}/${serverId}/retry`).then(
        () => announce('Connecting again…'),
        (error: Error) => announce(error.message),
      );
    },
    open(server, target) {
      callPanel.hidden = false;
      renderCallForm(callPanel, server, target, startCall);
    },
    read(server, uri) {
      startCall({ serverId: server.id, kind: 'resource', name: uri }).catch((error: Error) =>
        announce(error.message),
      );
    },
  };

  let shownServer: unknown = null;
  // The server just added: its id comes back before the event that lists it, so it stays selected.
  let adding: string | undefined;
  const render = () => {
    if (adding !== undefined && store.servers.has(adding)) adding = undefined;
    if (selected === undefined || (!store.servers.has(selected) && selected !== adding))
      selected = store.servers.keys().next().value;
    renderServerList(byId('server-list'), store.servers.values(), selected, actions);
    const server = selected === undefined ? undefined : store.servers.get(selected);
    // Re-render the panel only when the server changed, so focus in it is kept.
    if (server !== shownServer) {
      shownServer = server;
      renderServerPanel(serverPanel, server, actions);
    }
  };
  const seen = new Map<string, string>();
  store.on((event: LabEvent) => {
    if (event.type === 'server' && seen.get(event.server.id) !== event.server.status) {
      seen.set(event.server.id, event.server.status);
      if (event.server.status === 'ready') announce(`Connected to ${serverLabel(event.server)}.`);
      if (event.server.status === 'failed') announce(`Could not connect to ${event.server.target}.`);
    }
    if (event.type === 'snapshot' || event.type === 'server' || event.type === 'server-removed') render();
    // Until the first snapshot the list is not the lab's: say so to assistive technology (and tests).
    if (event.type === 'snapshot') byId('server-list').removeAttribute('aria-busy');
  });

  new CallList(byId('call-list'), store, {
    cancel: (callId) =>
      void api.post(`${API.calls}/${callId}/cancel`).catch((error: Error) => announce(error.message)),
    answer: (questionId, answer) =>
      void api
        .post(`${API.questions}/${questionId}/answer`, answer)
        .catch((error: Error) => announce(error.message)),
  });
  new QuestionDialog(
    byId('question-dialog'),
    store,
    async (id, answer) => {
      await api.post(`${API.questions}/${id}/answer`, answer);
    },
    announce,
  );

  const roots = new RootsEditor(byId<HTMLFieldSetElement>('connect-roots'));
  const connectForm = byId<HTMLFormElement>('connect-form');
  connectForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const target = byId<HTMLInputElement>('connect-target').value.trim();
    const era = byId<HTMLSelectElement>('connect-era').value as EraChoice;
    if (target === '') return announce('Type a command line or a URL to connect.');
    const chosen = roots.values();
    api.post<{ id: string }>(API.servers, { target, era, ...(chosen.length > 0 && { roots: chosen }) }).then(
      ({ id }) => {
        selected = id;
        adding = id;
        byId<HTMLInputElement>('connect-target').value = '';
        roots.clear();
        announce(`Connecting to ${target}…`);
        render();
      },
      (error: Error) => announce(error.message),
    );
  });

  api.events(
    (event) => store.apply(event),
    (open) => {
      document.body.dataset.connected = String(open);
      if (!open) announce('Lost the connection to the lab; retrying…');
    },
  );
  render();
}

start();
