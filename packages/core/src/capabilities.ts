import { isRecord } from './form/json.js';

/** Which elicitation modes a client declared. */
export interface ElicitationModes {
  /** The client renders form-mode questions. */
  readonly form: boolean;
  /** The client opens URL-mode requests (with consent). */
  readonly url: boolean;
}

/**
 * Reads the elicitation modes from a client's declared capabilities (from `initialize` on the
 * 2025 eras, or from the request's `_meta` on 2026-07-28).
 *
 * A missing `elicitation` means neither mode; a bare `elicitation: {}` means form only (the
 * 2025-06-18 shape, kept for back-compatibility); otherwise each mode is on when its key is present.
 * Given the session's `protocolVersion`, URL mode is off on 2025-06-18 whatever was declared: that
 * revision has no URL mode (it came with 2025-11-25, SEP-1036), so a server must not send one.
 *
 * @example
 * elicitationModes({ elicitation: {} }); // { form: true, url: false }
 * elicitationModes({ elicitation: { url: {} } }); // { form: false, url: true }
 * elicitationModes({ elicitation: { form: {}, url: {} } }, '2025-06-18'); // { form: true, url: false }
 */
export function elicitationModes(clientCapabilities: unknown, protocolVersion?: string): ElicitationModes {
  if (!isRecord(clientCapabilities)) return { form: false, url: false };
  const elicitation = clientCapabilities.elicitation;
  if (!isRecord(elicitation)) return { form: false, url: false };
  const hasForm = 'form' in elicitation;
  const hasUrl = 'url' in elicitation;
  return { form: hasForm || (!hasForm && !hasUrl), url: hasUrl && protocolVersion !== '2025-06-18' };
}
