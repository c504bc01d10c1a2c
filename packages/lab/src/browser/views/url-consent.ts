import { inspectUrl, splitHostForDisplay } from '@parley/core/url';
import { type AskerContext, callLine, el, idPrefix } from '@parley/renderer/parts';

export type UrlConsentAction = 'accept' | 'decline' | 'cancel';

export interface UrlConsentOptions {
  /** Called once: `accept` after the page was opened, or `decline` / `cancel`. */
  onAnswer(action: UrlConsentAction): void;
  readonly context?: AskerContext;
  /** Opens the address; default a new top-level window with `noopener,noreferrer`. */
  readonly open?: (href: string) => void;
  /** The person said "I've finished" on this page just before, and the server asks again. */
  readonly notFinished?: boolean;
}

export interface RenderedUrlConsent {
  readonly labelId: string;
  readonly descriptionId: string;
  focus(): void;
  destroy(): void;
}

function openInNewWindow(href: string): void {
  window.open(href, '_blank', 'noopener,noreferrer');
}

function serverName(context: AskerContext | undefined): string {
  return context?.server?.title || context?.server?.name || 'A server';
}

/**
 * Renders the consent step of a URL-mode elicitation: the full address as text (never a link), the
 * owner of the site highlighted, the Unicode and punycode forms of the host when they differ, every
 * warning from `inspectUrl`, and **Open**, **Decline**, **Cancel**. Nothing is fetched; the address
 * opens only when the person presses Open, and never when `inspectUrl` does not allow it.
 */
export function renderUrlConsent(
  element: HTMLElement,
  request: { readonly message: string; readonly url: string },
  options: UrlConsentOptions,
): RenderedUrlConsent {
  const inspection = inspectUrl(request.url);
  const prefix = idPrefix();
  const labelId = `${prefix}title`;
  const descriptionId = `${prefix}message`;
  const title = el(
    'h2',
    { id: labelId, class: 'parley-title', tabindex: '-1' },
    `${serverName(options.context)} asks you to open a web page`,
  );
  const line = callLine(options.context);
  const parts = inspection.href === '' ? undefined : splitHostForDisplay(inspection);
  const facts: HTMLElement[] = [];
  if (parts) {
    facts.push(
      el('dt', null, 'Site'),
      el(
        'dd',
        { class: 'url-host' },
        parts.before,
        el('mark', { class: 'url-registrable' }, parts.registrable),
        parts.after,
      ),
    );
  }
  if (inspection.unicodeHost !== inspection.host) {
    facts.push(el('dt', null, 'Punycode form'), el('dd', { class: 'url-punycode' }, inspection.host));
  }
  if (inspection.href !== '' && inspection.href !== request.url) {
    facts.push(el('dt', null, 'As the server wrote it'), el('dd', { class: 'url-as-sent' }, request.url));
  }
  const open = el(
    'button',
    { type: 'button', class: 'parley-button parley-primary', disabled: !inspection.allowed },
    'Open',
  );
  const decline = el('button', { type: 'button', class: 'parley-button parley-secondary' }, 'Decline');
  const cancel = el('button', { type: 'button', class: 'parley-button parley-secondary' }, 'Cancel');
  const root = el(
    'div',
    { class: 'parley-url-consent', role: 'group', 'aria-labelledby': labelId },
    title,
    line === '' ? null : el('p', { class: 'parley-call' }, line),
    options.notFinished
      ? el(
          'p',
          { class: 'url-not-finished', role: 'alert' },
          "You chose “I've finished”, but the server asks again: the page was not answered or finished yet. " +
            "Open it, finish there, then choose “I've finished”.",
        )
      : null,
    el('p', { id: descriptionId, class: 'parley-message' }, request.message),
    el('h3', null, 'Full address'),
    el('p', { class: 'url-full' }, el('code', null, inspection.href || request.url)),
    facts.length > 0 ? el('dl', { class: 'url-facts' }, ...facts) : null,
    inspection.warnings.length > 0 ? el('h3', null, 'Warnings') : null,
    inspection.warnings.length > 0
      ? el(
          'ul',
          { class: 'url-warnings' },
          ...inspection.warnings.map((warning) => el('li', { 'data-code': warning.code }, warning.message)),
        )
      : null,
    inspection.allowed
      ? el(
          'p',
          { class: 'url-note' },
          'Open only if you trust this site. Nothing has been loaded from it yet.',
        )
      : el(
          'p',
          { class: 'url-refused', role: 'alert' },
          'This address cannot be opened. Decline, or cancel.',
        ),
    el('div', { class: 'parley-actions' }, open, decline, cancel),
  );

  let answered = false;
  const finish = (action: UrlConsentAction) => {
    if (answered) return;
    answered = true;
    for (const button of [open, decline, cancel]) button.disabled = true;
    options.onAnswer(action);
  };
  open.addEventListener('click', () => {
    if (!inspection.allowed || answered) return;
    (options.open ?? openInNewWindow)(inspection.href);
    finish('accept');
  });
  decline.addEventListener('click', () => finish('decline'));
  cancel.addEventListener('click', () => finish('cancel'));
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || answered) return;
    event.preventDefault();
    finish('cancel');
  });

  element.append(root);
  return { labelId, descriptionId, focus: () => title.focus(), destroy: () => root.remove() };
}
