import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { isRecord } from '@parley/core';
import type { ParleyContext } from '@parley/server';

/** The tasks extension (SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * What an upstream is told its client can do, for one call: exactly the modes the host declared
 * on this request (2026-07-28) or session (2025), never more and never less, plus what the
 * gateway serves itself: forms, on its question pages, for a host that shows none but can open a
 * URL (elicitation with URL mode only) or declared no way of being asked at all (the page's link
 * then goes in the result). A host that declared sampling or roots but no elicitation told the
 * upstream how it wants to be asked, and the upstream hears just that. Sampling passes only when
 * the host declared it, as the host declared it; roots likewise, without `listChanged`.
 *
 * @param pages whether the gateway asks on its pages what the host cannot show.
 * @param revision the upstream session's revision where it is pinned (2025-06-18 knows no modes).
 */
export function upstreamCapabilities(
  ctx: Pick<ParleyContext, 'clientCapabilities' | 'can'>,
  pages: boolean,
  revision?: string,
): ClientCapabilities {
  const declared = ctx.clientCapabilities;
  const elicitation = isRecord(declared.elicitation) ? declared.elicitation : {};
  const askedOtherwise = ctx.can('sampling') || ctx.can('roots');
  const form = ctx.can('form') || (pages && (ctx.can('url') || !askedOtherwise));
  const url = ctx.can('url') && revision !== '2025-06-18';
  const capabilities: Record<string, unknown> = {};
  if (revision === '2025-06-18') {
    if (form) capabilities.elicitation = {};
  } else if (form || url) {
    capabilities.elicitation = {
      ...(form && { form: isRecord(elicitation.form) ? elicitation.form : {} }),
      ...(url && { url: isRecord(elicitation.url) ? elicitation.url : {} }),
    };
  }
  if (ctx.can('sampling')) capabilities.sampling = isRecord(declared.sampling) ? declared.sampling : {};
  // `listChanged` is left out: the gateway does not pass a host's roots/list_changed on.
  if (ctx.can('roots')) capabilities.roots = {};
  // The tasks extension: the gateway runs a task of its own for each task of the upstream's.
  const extensions = isRecord(declared.extensions) ? declared.extensions : {};
  if (isRecord(extensions[TASKS_EXTENSION]))
    capabilities.extensions = { [TASKS_EXTENSION]: extensions[TASKS_EXTENSION] };
  return capabilities as ClientCapabilities;
}
