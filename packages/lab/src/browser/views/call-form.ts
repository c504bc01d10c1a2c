import { el, idPrefix } from '@parley/renderer/parts';
import type { CallKind, Listed, ServerView } from '../../protocol.js';
import { expandTemplate, templateVariables } from '../uri-template.js';
import { type ArgumentView, textArguments, toolArguments } from './argument-views.js';

/** What a call form can call: a tool, a prompt, or a resource template. */
export type CallTarget = { kind: 'tool' | 'prompt' | 'template'; item: Listed };

export type StartCall = (call: {
  serverId: string;
  kind: CallKind;
  name: string;
  arguments?: Record<string, unknown>;
}) => Promise<void>;

const TITLES = { tool: 'Call tool', prompt: 'Get prompt', template: 'Read resource' } as const;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function promptArguments(item: Listed): { name: string; description?: string; required?: boolean }[] {
  const list = Array.isArray(item.arguments) ? item.arguments : [];
  return list.filter(
    (arg): arg is { name: string; description?: string; required?: boolean } =>
      typeof arg === 'object' && arg !== null && typeof (arg as { name?: unknown }).name === 'string',
  );
}

function argumentsFor(
  target: CallTarget,
  prefix: string,
  typed: Readonly<Record<string, unknown>>,
): ArgumentView[] {
  if (target.kind === 'tool') return toolArguments(target.item.inputSchema, prefix, typed);
  if (target.kind === 'prompt') return textArguments(promptArguments(target.item), prefix, typed);
  return textArguments(
    templateVariables(text(target.item.uriTemplate)).map((name) => ({ name, required: true })),
    prefix,
    typed,
  );
}

/**
 * What the person typed into each call form, by server and what it calls: the form shows it again
 * when it is opened again (after a call, or after looking at another tool). In the page's memory
 * only: nothing is stored in the browser.
 */
const typedBefore = new Map<string, Record<string, unknown>>();

/** What the views hold now that reads as a value (a field left empty or invalid is left out). */
function readTyped(views: readonly ArgumentView[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const view of views) {
    const reading = view.read();
    if (reading.ok && reading.value !== undefined) values[view.name] = reading.value;
  }
  return values;
}

/**
 * The form for one call: a field per argument, built from the tool's input schema, the prompt's
 * arguments or the template's variables. Submitting checks every field, then starts the call.
 */
export function renderCallForm(
  panel: HTMLElement,
  server: ServerView,
  target: CallTarget,
  start: StartCall,
): void {
  const prefix = idPrefix();
  const name = target.kind === 'template' ? text(target.item.uriTemplate) : text(target.item.name);
  const memory = `${server.id}\n${target.kind}\n${name}`;
  const views = argumentsFor(target, prefix, typedBefore.get(memory) ?? {});
  const status = el('p', { class: 'form-status', role: 'status' });
  const submit = el('button', { type: 'submit', class: 'parley-button parley-primary' }, TITLES[target.kind]);
  const titleId = `${prefix}title`;
  const title = el('h2', { id: titleId, tabindex: '-1' }, `${TITLES[target.kind]} `, el('code', null, name));
  const form = el(
    'form',
    { class: 'call-form', novalidate: true, 'aria-labelledby': titleId },
    title,
    text(target.item.description) ? el('p', { class: 'description' }, text(target.item.description)) : null,
    views.length === 0 ? el('p', { class: 'note' }, 'No arguments.') : null,
    ...views.map((view) => view.element),
    el('div', { class: 'parley-actions' }, submit),
    status,
  );

  const remember = () => typedBefore.set(memory, readTyped(views));
  form.addEventListener('input', remember);
  form.addEventListener('change', remember);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values: Record<string, unknown> = {};
    let firstBad: ArgumentView | undefined;
    for (const view of views) {
      const reading = view.read();
      view.showError(reading.ok ? undefined : reading.message);
      if (!reading.ok) firstBad ??= view;
      else if (reading.value !== undefined) values[view.name] = reading.value;
    }
    if (firstBad) {
      status.textContent = 'Some arguments need attention.';
      return firstBad.focus();
    }
    const call =
      target.kind === 'template'
        ? {
            serverId: server.id,
            kind: 'resource' as const,
            name: expandTemplate(name, values as Record<string, string>),
          }
        : { serverId: server.id, kind: target.kind, name, arguments: values };
    status.textContent = 'Starting…';
    start(call).then(
      () => {
        status.textContent = 'Started; see Calls.';
      },
      (error: unknown) => {
        status.textContent = `Could not start: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
  });

  panel.replaceChildren(form);
  (views[0] ?? { focus: () => title.focus() }).focus();
}
