import { readCappedBody } from '@parley/core/node';
import { html, page } from './html.js';

/** The largest form the store's pages read (a sign-in or a connect decision is far smaller). */
export const MAX_FORM_BYTES = 8192;

/**
 * Reads a small urlencoded form through the one capped body reader: a body past `maxBytes` is cut
 * off as it arrives (chunked or not) and answered 413, anything but a urlencoded form 415. The
 * refusal comes back as the page to send.
 */
export async function readForm(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData | Response> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) {
    return refusal(415, 'Send this form from its page (as application/x-www-form-urlencoded).');
  }
  const body = request.body as AsyncIterable<Uint8Array> | null;
  const read = await readCappedBody(body, maxBytes, request.headers.get('content-length'));
  if (!read.ok) return refusal(read.reason === 'too-large' ? 413 : 400, read.message);
  const form = new FormData();
  for (const [name, value] of new URLSearchParams(new TextDecoder().decode(read.bytes))) {
    form.append(name, value);
  }
  return form;
}

function refusal(status: number, message: string): Response {
  return page('Not sent', html`<p class="error">${message}</p>`, {
    status,
    // The rest of an unread body must not be taken for the next request on this connection.
    headers: { connection: 'close' },
  });
}
