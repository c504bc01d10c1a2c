/**
 * 2025-era clients that declared a mode of elicitation and then failed `elicitation/create` in it,
 * by their capabilities object (one per session): the rest of the session's questions skip that
 * mode (a form goes to a page; a page's URL question becomes a link in the result).
 */
const failed = { form: new WeakSet<object>(), url: new WeakSet<object>() };

export function markModeFailed(mode: 'form' | 'url', clientCapabilities: unknown): void {
  if (typeof clientCapabilities === 'object' && clientCapabilities !== null)
    failed[mode].add(clientCapabilities);
}

export function modeFailedFor(mode: 'form' | 'url', clientCapabilities: unknown): boolean {
  return (
    typeof clientCapabilities === 'object' &&
    clientCapabilities !== null &&
    failed[mode].has(clientCapabilities)
  );
}
