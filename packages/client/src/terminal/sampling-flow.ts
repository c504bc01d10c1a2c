import { isCancel, log, multiline, select } from '@clack/prompts';
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import { samplingView } from '../sampling-view.js';
import type { AskContext, SamplingDecline } from '../types.js';
import { describeCallPlace } from './header.js';
import { paint, promptSignal, type TerminalIO } from './io.js';
import { terminalLine, terminalText } from './terminal-text.js';

/** What a reply typed by the person says it came from, in `CreateMessageResult.model`. */
export const TYPED_REPLY_MODEL = 'human';

/** The request as the person reads it: every string from the server made inert. */
export function samplingLines(params: unknown): string[] {
  const view = samplingView(params);
  const lines: string[] = [];
  if (view.systemPrompt !== undefined) {
    lines.push('System prompt:', ...indent(terminalText(view.systemPrompt)));
  }
  lines.push(`Messages (${view.messages.length}):`);
  for (const message of view.messages) {
    lines.push(`  ${terminalLine(message.role)}:`);
    for (const part of message.parts) lines.push(...indent(terminalText(part.text), '    '));
  }
  const limits = [
    view.maxTokens === undefined ? 'no token limit given' : `at most ${view.maxTokens} tokens`,
    ...(view.temperature === undefined ? [] : [`temperature ${view.temperature}`]),
    ...(view.modelHints === undefined
      ? []
      : [`model hints: ${view.modelHints.map((hint) => terminalLine(hint)).join(', ')}`]),
  ];
  lines.push(`Reply: ${limits.join(' · ')}`);
  return lines;
}

function indent(text: string, by = '  '): string[] {
  return text.split('\n').map((line) => `${by}${line}`);
}

/**
 * A sampling request in the terminal: shown as a model request from this server, with its
 * messages, system prompt and token limit. Nothing is sent unless the person approves and types
 * the reply; "Decline", Escape and Ctrl-C decline.
 */
export async function askSamplingInTerminal(
  io: TerminalIO,
  request: CreateMessageRequestParams,
  context: AskContext,
): Promise<CreateMessageResult | SamplingDecline> {
  const { server } = context;
  const name = terminalLine(
    server.title && server.title !== server.name ? `${server.title} (${server.name})` : server.name,
  );
  log.step(
    paint(io, 'bold', `${name} requests a model reply (sampling) · ${describeCallPlace(context)}`),
    io,
  );
  log.message(
    [
      'The server wants a language model to answer the conversation below. No model runs here:',
      'approve to type the reply yourself, or decline. The text below is from the server.',
    ],
    io,
  );
  log.message(samplingLines(request), io);
  const choice = await select({
    ...io,
    signal: promptSignal(context.signal),
    message: 'Answer this model request?',
    options: [
      { value: 'approve', label: 'Approve and type the reply' },
      { value: 'decline', label: 'Decline' },
    ],
    initialValue: 'decline',
  });
  if (isCancel(choice) || choice === 'decline') return { action: 'decline' };
  const reply = await multiline({
    ...io,
    signal: promptSignal(context.signal),
    message: 'The reply to send as the model’s message (Enter on an empty line sends it)',
    validate: (value) =>
      value === undefined || value.trim() === '' ? 'Type a reply, or press Escape to decline.' : undefined,
  });
  if (isCancel(reply)) return { action: 'decline' };
  return {
    role: 'assistant',
    content: { type: 'text', text: reply },
    model: TYPED_REPLY_MODEL,
    stopReason: 'endTurn',
  };
}
