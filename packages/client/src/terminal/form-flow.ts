import { isCancel, log, select } from '@clack/prompts';
import { type FormField, type FormValue, listFields, parseContent } from '@parley/core/form';
import type { AskContext, ElicitResult, FormRequest } from '../types.js';
import { askField, CANCELLED } from './ask-field.js';
import { shownValue } from './field-text.js';
import { showHeader } from './header.js';
import { promptSignal, type TerminalIO } from './io.js';
import { terminalLine, terminalText } from './terminal-text.js';

type Values = Record<string, FormValue | undefined>;

/**
 * A form in the terminal: the header, a first choice to answer or decline, every field (defaults
 * pre-filled), then a review screen where any field can be edited before sending. The whole answer
 * is checked with `parseContent`; a field it rejects is shown with the reason and asked again.
 * Escape or Ctrl-C at any point is `cancel`; "Decline" is `decline`.
 */
export async function askFormInTerminal(
  io: TerminalIO,
  request: FormRequest,
  context: AskContext,
): Promise<ElicitResult> {
  const heading = [request.title, request.description].filter((line) => line !== undefined);
  showHeader(io, context, [...heading, request.message].join('\n'));
  const { signal } = context;
  const start = await select({
    ...io,
    signal: promptSignal(signal),
    message: 'Answer this?',
    options: [
      { value: 'answer', label: 'Answer' },
      { value: 'decline', label: 'Decline' },
    ],
  });
  if (isCancel(start)) return { action: 'cancel' };
  if (start === 'decline') return { action: 'decline' };

  const fields = listFields(request.requestedSchema);
  const values: Values = Object.fromEntries(fields.map((field) => [field.name, field.default]));
  for (const field of fields) {
    const answer = await askField(io, field, values[field.name], signal);
    if (answer === CANCELLED) return { action: 'cancel' };
    values[field.name] = answer;
  }

  while (true) {
    const content = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
    const parsed = parseContent(request.requestedSchema, content);
    if (!parsed.ok) {
      const error = parsed.errors[0]!;
      const field = fields.find((candidate) => candidate.name === error.field);
      log.error(terminalText(field ? `${field.title}: ${error.message}` : error.message), io);
      if (field === undefined) return { action: 'cancel' };
      const answer = await askField(io, field, values[field.name], signal);
      if (answer === CANCELLED) return { action: 'cancel' };
      values[field.name] = answer;
      continue;
    }
    log.message(reviewLines(fields, values), io);
    const next = await select({
      ...io,
      signal: promptSignal(signal),
      message: 'Send these answers?',
      options: [
        { value: 'send', label: 'Send' },
        { value: 'edit', label: 'Edit a field' },
        { value: 'decline', label: 'Decline' },
      ],
    });
    if (isCancel(next)) return { action: 'cancel' };
    if (next === 'send') return { action: 'accept', content };
    if (next === 'decline') return { action: 'decline' };
    const which = await select({
      ...io,
      signal: promptSignal(signal),
      message: 'Which field?',
      options: fields.map((field) => ({
        value: field.name,
        label: `${terminalLine(field.title)}: ${shownValue(field, values[field.name])}`,
      })),
    });
    if (isCancel(which)) continue;
    const field = fields.find((candidate) => candidate.name === which)!;
    const answer = await askField(io, field, values[field.name], signal);
    if (answer !== CANCELLED) values[field.name] = answer;
  }
}

function reviewLines(fields: readonly FormField[], values: Values): string[] {
  return [
    'Your answers:',
    ...fields.map((field) => `  ${terminalLine(field.title)}: ${shownValue(field, values[field.name])}`),
  ];
}
