// The document of the exercise sandbox: a frame with no origin of its own (sandboxed without
// allow-same-origin) whose Content-Security-Policy allows no network at all. It starts one worker
// from the runtime text the page sends, hands it the code, and passes the outcome back to the page.

/**
 * What the frame may do: run its own inline loader, start a worker from a `blob:` it made, and
 * evaluate the exercise's code there. No `connect-src` (no fetch, WebSocket, EventSource), no
 * script from any URL (no remote import), nothing else loaded; being of no origin, it has no
 * storage (IndexedDB, CacheStorage, cookies) either.
 */
export const FRAME_POLICY =
  "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:; " +
  "connect-src 'none'; base-uri 'none'; form-action 'none'";

// Runs in the frame: plain JavaScript, inlined. It takes one message from the page (the runtime and
// the code), answers the page's origin only, and never runs anything the worker sends.
const LOADER = `
addEventListener('message', (event) => {
  if (event.source !== parent) return;
  const reply = (outcome) => parent.postMessage(outcome, event.origin);
  let worker;
  try {
    const url = URL.createObjectURL(new Blob([event.data.runtime], { type: 'text/javascript' }));
    worker = new Worker(url, { name: 'exercise' });
  } catch {
    reply({ ok: false, error: 'The sandbox failed to start.' });
    return;
  }
  worker.onmessage = (message) => reply(message.data);
  worker.onerror = (error) => {
    error.preventDefault();
    reply({ ok: false, error: error.message || 'The sandbox failed to start.' });
  };
  worker.postMessage({ code: event.data.code });
}, { once: true });
`;

/** The frame's `srcdoc`. */
export function frameDocument(): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${FRAME_POLICY}">` +
    `<script>${LOADER}</script></head><body></body></html>`
  );
}
