import { isRecord } from '@parley/core';
import type { KeyRing } from '@parley/core/seal';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The associated data an answer is sealed with: it opens only as this server's answer to this page. */
function aadOf(server: string, pageId: string): Uint8Array {
  return encoder.encode(JSON.stringify(['parley.page-answer.v1', server, pageId]));
}

/**
 * Seals a page's accepted content (it holds a secret) with the server's key ring, so the store
 * that keeps it until the call ends holds only ciphertext.
 */
export function sealAnswer(
  ring: KeyRing,
  server: string,
  pageId: string,
  content: Readonly<Record<string, unknown>>,
): Promise<string> {
  return ring.seal(encoder.encode(JSON.stringify(content)), aadOf(server, pageId));
}

/** Opens what {@link sealAnswer} sealed for this page; `undefined` when it does not open. */
export async function openAnswer(
  ring: KeyRing,
  server: string,
  pageId: string,
  token: string,
): Promise<Record<string, unknown> | undefined> {
  const opened = await ring.open(token, aadOf(server, pageId));
  if (!opened.ok) return undefined;
  try {
    const content = JSON.parse(decoder.decode(opened.plaintext)) as unknown;
    return isRecord(content) ? content : undefined;
  } catch {
    return undefined;
  }
}
