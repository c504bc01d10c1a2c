import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ElicitationUI } from './types.js';

/**
 * The client capabilities a host really has: elicitation modes exactly as `ui.modes` says, and
 * sampling or roots only when the host implements them. The SDK sends these in `initialize`
 * (handshake) or in every request's `_meta` (modern).
 *
 * @example
 * const decline = async () => ({ action: 'decline' }) as const;
 * capabilitiesFor({ modes: { form: true, url: false }, form: decline, url: decline }); // { elicitation: { form: {} } }
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
  return capabilities;
}
