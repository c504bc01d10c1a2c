import type { RequestedSchema } from '@parley/core/form';
import { HOST_PROFILES, type HostView, viewForHost } from '@parley/core/hosts';
import { type RenderedElicitation, renderElicitation } from '@parley/renderer';
import { el } from '@parley/renderer/parts';
import type { QuestionContext } from '../../protocol.js';

const WHERE: Record<HostView['route'], string> = {
  'in-band': 'shown in the host, as below',
  'page-url': 'asked on a page of the server, opened by URL mode',
  'page-link': 'asked on a page of the server, by a link in the call’s result',
};

/** One change or note, with the sources it rests on. */
function sourced(text: string, sources: readonly string[], seenOn: string): HTMLElement {
  const cited = sources.length > 0 ? ` (${sources.join(', ')}; seen on ${seenOn})` : '';
  return el('li', null, `${text}${cited}`);
}

/**
 * "Preview as host": beside the real form, the same question as one MCP host with a profile
 * (`@parley/core/hosts`) would meet it: where it goes for that host, the form it is sent (drawn
 * inert: it cannot be answered), and every change and note with its sources. Nothing is sent.
 */
export function renderHostPreview(
  request: { readonly message: string; readonly requestedSchema: RequestedSchema },
  context: QuestionContext,
): { readonly element: HTMLElement; destroy(): void } {
  const select = el(
    'select',
    { id: 'host-preview-select' },
    el('option', { value: '' }, 'No preview'),
    ...HOST_PROFILES.map((profile) => el('option', { value: profile.id }, profile.title)),
  ) as HTMLSelectElement;
  const summary = el('p', { class: 'host-preview-where', 'aria-live': 'polite' });
  const changes = el('ul', { class: 'host-preview-changes' });
  const form = el('div', { class: 'host-preview-form', inert: true });
  let shown: RenderedElicitation | undefined;
  const element = el(
    'section',
    { class: 'host-preview', 'aria-label': 'Preview as another host' },
    el('label', { for: 'host-preview-select' }, 'Preview as host '),
    select,
    summary,
    changes,
    form,
  );
  const show = () => {
    shown?.destroy();
    shown = undefined;
    form.replaceChildren();
    changes.replaceChildren();
    const profile = HOST_PROFILES.find((candidate) => candidate.id === select.value);
    element.dataset.host = profile?.id ?? '';
    summary.textContent = '';
    if (!profile) return;
    const view = viewForHost(request.requestedSchema, profile);
    summary.textContent = `${profile.title} (${profile.wire.value.clientInfo.name}): ${WHERE[view.route]}${
      view.why === undefined ? '' : `, because ${view.why}`
    }.`;
    changes.replaceChildren(
      ...view.changes.map((change) =>
        sourced(
          `${change.field === undefined ? '' : `${change.field}: `}${change.text}`,
          change.sources,
          change.seenOn,
        ),
      ),
      ...view.notes.map((note) => sourced(note.text, note.sources, note.seenOn)),
    );
    if (view.sent)
      shown = renderElicitation(
        form,
        { message: request.message, requestedSchema: view.sent },
        { context, title: `As ${profile.title} is sent it`, escapeCancels: false, onAnswer: () => {} },
      );
  };
  select.addEventListener('change', show);
  return {
    element,
    destroy() {
      select.removeEventListener('change', show);
      shown?.destroy();
    },
  };
}
