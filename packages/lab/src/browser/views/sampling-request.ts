import type { SamplingView } from '@parley/client';
import { type AskerContext, callLine, el, idPrefix } from '@parley/renderer/parts';

/** `approve` with the reply the person typed, or `decline`. */
export type SamplingAnswer =
  | { readonly action: 'approve'; readonly reply: string }
  | { readonly action: 'decline' };

export interface SamplingRequestOptions {
  /** Called once, with the person's decision. */
  onAnswer(answer: SamplingAnswer): void;
  readonly context?: AskerContext;
}

export interface RenderedSamplingRequest {
  readonly labelId: string;
  readonly descriptionId: string;
  focus(): void;
  destroy(): void;
}

function serverName(context: AskerContext | undefined): string {
  return context?.server?.title || context?.server?.name || 'A server';
}

/** Server text as a block of text: text nodes only, its line breaks kept by CSS. */
function textBlock(className: string, text: string): HTMLElement {
  return el('p', { class: className }, text);
}

/**
 * Renders a sampling request as what it is: a model request from this server. Its system prompt,
 * its messages by role (image, audio and tool content as a placeholder line, never decoded) and its
 * token limit are shown as inert text; the person types the reply and presses **Approve and send**,
 * or **Decline** (Escape declines too). Nothing is sent without them.
 */
export function renderSamplingRequest(
  element: HTMLElement,
  request: SamplingView,
  options: SamplingRequestOptions,
): RenderedSamplingRequest {
  const prefix = idPrefix();
  const labelId = `${prefix}title`;
  const descriptionId = `${prefix}about`;
  const replyId = `${prefix}reply`;
  const hintId = `${prefix}reply-hint`;
  const errorId = `${prefix}reply-error`;
  const title = el(
    'h2',
    { id: labelId, class: 'parley-title', tabindex: '-1' },
    `${serverName(options.context)} requests a model reply (sampling)`,
  );
  const line = callLine(options.context);
  const facts: HTMLElement[] = [
    el('dt', null, 'Reply length'),
    el(
      'dd',
      { class: 'sampling-max-tokens' },
      request.maxTokens === undefined ? 'no token limit given' : `at most ${request.maxTokens} tokens`,
    ),
  ];
  if (request.temperature !== undefined) {
    facts.push(el('dt', null, 'Temperature'), el('dd', null, String(request.temperature)));
  }
  if (request.modelHints !== undefined) {
    facts.push(el('dt', null, 'Model hints'), el('dd', null, request.modelHints.join(', ')));
  }
  const reply = el('textarea', {
    id: replyId,
    class: 'sampling-reply',
    rows: '4',
    'aria-describedby': `${hintId} ${errorId}`,
  });
  const error = el('p', { id: errorId, class: 'parley-error', role: 'alert' });
  const approve = el('button', { type: 'button', class: 'parley-button parley-primary' }, 'Approve and send');
  const decline = el('button', { type: 'button', class: 'parley-button parley-secondary' }, 'Decline');
  const root = el(
    'div',
    { class: 'parley-sampling', role: 'group', 'aria-labelledby': labelId },
    title,
    line === '' ? null : el('p', { class: 'parley-call' }, line),
    el(
      'p',
      { id: descriptionId, class: 'sampling-about' },
      'The server wants a language model to answer the conversation below. No model runs in the lab: ',
      'approve to send the reply you type as the model’s message, or decline. Everything below comes from the server.',
    ),
    request.systemPrompt === undefined ? null : el('h3', null, 'System prompt'),
    request.systemPrompt === undefined
      ? null
      : textBlock('sampling-text sampling-system', request.systemPrompt),
    el('h3', null, `Messages (${request.messages.length})`),
    el(
      'ol',
      { class: 'sampling-messages' },
      ...request.messages.map((message) =>
        el(
          'li',
          { class: 'sampling-message' },
          el('span', { class: 'sampling-role' }, message.role),
          ...message.parts.map((part) =>
            part.kind === 'text'
              ? textBlock('sampling-text', part.text)
              : textBlock('sampling-placeholder', part.text),
          ),
        ),
      ),
    ),
    el('dl', { class: 'sampling-facts' }, ...facts),
    el('label', { for: replyId }, 'Your reply, sent as the model’s message'),
    el('p', { id: hintId, class: 'parley-hint' }, 'The server receives exactly this text.'),
    reply,
    error,
    el('div', { class: 'parley-actions' }, approve, decline),
  );

  let answered = false;
  const finish = (answer: SamplingAnswer) => {
    if (answered) return;
    answered = true;
    for (const control of [approve, decline, reply]) control.disabled = true;
    options.onAnswer(answer);
  };
  approve.addEventListener('click', () => {
    if (reply.value.trim() === '') {
      error.textContent = 'Type a reply to approve, or decline.';
      reply.setAttribute('aria-invalid', 'true');
      reply.focus();
      return;
    }
    finish({ action: 'approve', reply: reply.value });
  });
  reply.addEventListener('input', () => {
    error.textContent = '';
    reply.removeAttribute('aria-invalid');
  });
  decline.addEventListener('click', () => finish({ action: 'decline' }));
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || answered) return;
    event.preventDefault();
    finish({ action: 'decline' });
  });

  element.append(root);
  return { labelId, descriptionId, focus: () => title.focus(), destroy: () => root.remove() };
}
