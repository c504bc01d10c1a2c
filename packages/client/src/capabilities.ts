import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { PARLEY_RESUME_META } from '@parley/core';
import type { ElicitationUI } from './types.js';

/**
 * The client capabilities a host really has: elicitation modes exactly as `ui.modes` says, and
 * sampling or roots only when the host implements them; for a host that cannot open URLs, the
 * `dev.parley/resume` extension (the client carries a parked call's resume token back). The SDK
 * sends these in `initialize` (handshake) or in every request's `_meta` (modern).
 *
 * @example
 * const decline = async () => ({ action: 'decline' }) as const;
 * capabilitiesFor({ modes: { form: true, url: true }, form: decline, url: decline }); // { elicitation: { form: {}, url: {} } }
 */
export function capabilitiesFor(ui: ElicitationUI): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (ui.modes.form || ui.modes.url) {
    capabilities.elicitation = {
      ...(ui.modes.form && { form: {} }),
      ...(ui.modes.url && { url: {} }),
    };
  }
  if (typeof ui.sampling === 'function') capabilities.sampling = {};
  if (typeof ui.roots === 'function') capabilities.roots = {};
  // A host that cannot open URLs may get a question page's link in a result: the client carries the
  // call's resume token back when the call is made again (see ResumeTokens).
  if (!ui.modes.url) capabilities.extensions = { [PARLEY_RESUME_META]: {} };
  return capabilities;
}
