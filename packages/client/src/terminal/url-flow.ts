import { isCancel, log, select } from '@clack/prompts';
import { splitHostForDisplay, type UrlInspection } from '@parley/core/url';
import type { AskContext, UrlConsent, UrlRequest } from '../types.js';
import { showHeader } from './header.js';
import { paint, promptSignal, type TerminalIO } from './io.js';
import { terminalText } from './terminal-text.js';

/** The URL as a person must see it: in full, the host with its registrable domain emphasized, every warning. */
export function describeUrl(io: TerminalIO, inspection: UrlInspection, raw: string): string[] {
  const parts = splitHostForDisplay(inspection);
  const bold = paint(io, ['bold', 'underline'], terminalText(parts.registrable));
  const site = `${terminalText(parts.before)}${bold}${terminalText(parts.after)}`;
  const lines = [`Address: ${terminalText(inspection.href || raw)}`, `Site:    ${site}`];
  if (inspection.unicodeHost !== inspection.host) lines.push(`         (${terminalText(inspection.host)})`);
  return lines;
}

/**
 * Asks for explicit consent to open a URL. Nothing is opened unless the person chooses to; a URL
 * that is not allowed is only shown as refused. The page opens in the system browser.
 */
export async function askUrlInTerminal(
  io: TerminalIO,
  request: UrlRequest,
  inspection: UrlInspection,
  context: AskContext,
  openUrl: (url: string) => Promise<void>,
): Promise<UrlConsent> {
  showHeader(io, context, request.message);
  log.message(describeUrl(io, inspection, request.url), io);
  for (const warning of inspection.warnings) log.warn(terminalText(warning.message), io);
  if (!inspection.allowed) {
    log.error('Parley will not open this link.', io);
    return { action: 'decline' };
  }
  const registrable = terminalText(splitHostForDisplay(inspection).registrable);
  const choice = await select({
    ...io,
    signal: promptSignal(context.signal),
    message: 'Open this page in your browser?',
    options: [
      { value: 'open', label: `Open ${registrable} in the browser` },
      { value: 'decline', label: 'Decline' },
    ],
    initialValue: inspection.warnings.length > 0 ? 'decline' : 'open',
  });
  if (isCancel(choice)) return { action: 'cancel' };
  if (choice === 'decline') return { action: 'decline' };
  await openUrl(inspection.href);
  log.info(`Opened ${registrable} in your browser.`, io);
  return { action: 'accept' };
}

/** While the server checks the flow: the person says when they are done, or cancels. */
export async function waitForUrlInTerminal(
  io: TerminalIO,
  context: AskContext,
): Promise<'finished' | 'cancel'> {
  const choice = await select({
    ...io,
    signal: promptSignal(context.signal),
    message: 'Finish in the browser, then:',
    options: [
      { value: 'finished', label: 'I have finished' },
      { value: 'cancel', label: 'Cancel' },
    ],
  });
  if (context.signal.aborted) {
    log.success('Done: the server is no longer waiting for this page.', io);
    return 'finished';
  }
  return isCancel(choice) || choice === 'cancel' ? 'cancel' : 'finished';
}
