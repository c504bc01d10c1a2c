// What a sealed requestState gives away (nothing) and how large it may grow (state.maxChars).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, type ModernWire } from './wire/modern-envelope.js';
import { accept, inputRequiredOf, toolResultOf } from './wire/modern-results.js';
import { startModernWire, type Transport } from './wire/start-modern.js';

const MAX_CHARS = 2048;

/** Every way the answer's text could show through a careless encoding. */
function encodingsOf(text: string): string[] {
  const bytes = Buffer.from(text);
  const shifted = [0, 1, 2].map((offset) => Buffer.concat([Buffer.alloc(offset), bytes]));
  return [
    text,
    encodeURIComponent(text),
    ...shifted.flatMap((padded) => {
      // Skip the characters that mix in the padding bytes.
      const skip = Math.ceil(((padded.length - bytes.length) * 4) / 3) + 1;
      return [padded.toString('base64').slice(skip, -4), padded.toString('base64url').slice(skip, -4)];
    }),
    bytes.toString('hex'),
  ];
}

describe.each([['stdio'], ['http']] as [Transport][])('sealed requestState over %s', (transport) => {
  let wire: ModernWire;
  beforeAll(async () => {
    wire = await startModernWire(transport, { PARLEY_FIXTURE_MAX_CHARS: String(MAX_CHARS) });
  });
  afterAll(() => wire?.close());

  it('is opaque: the answers it carries do not show in it', async () => {
    const secret = 'Zanzibar-7731-quokka';
    const args = { questions: 2 };
    const first = inputRequiredOf(await callTool(wire, 'quiz', args));
    const second = inputRequiredOf(
      await callTool(wire, 'quiz', args, {
        requestState: first.requestState,
        inputResponses: { n1: accept(secret) },
      }),
    );
    for (const encoded of encodingsOf(secret)) {
      expect(encoded.length).toBeGreaterThan(8);
      expect(second.requestState).not.toContain(encoded);
    }
    // Yet it carried the answer: the last round finishes with it.
    const done = toolResultOf(
      await callTool(wire, 'quiz', args, {
        requestState: second.requestState,
        inputResponses: { n2: accept('b') },
      }),
    );
    expect(done.text).toBe(`Answers: ${secret}, b`);
  });

  it('does not grow while a question is asked again', async () => {
    const args = { order: 'S-1' };
    const first = inputRequiredOf(await callTool(wire, 'book_return', args));
    let state = first.requestState;
    for (let round = 0; round < 3; round++) {
      const again = inputRequiredOf(
        await callTool(wire, 'book_return', args, { requestState: state, inputResponses: {} }),
      );
      expect(again.requestState.length).toBe(first.requestState.length);
      state = again.requestState;
    }
  });

  it('stays within state.maxChars, and past it the author gets StateTooLargeError with the fix', async () => {
    const fits = inputRequiredOf(await callTool(wire, 'remember', { chars: 1000 }));
    expect(fits.requestState.length).toBeGreaterThan(1000);
    expect(fits.requestState.length).toBeLessThanOrEqual(MAX_CHARS);

    const logMark = wire.log().length;
    const tooLarge = toolResultOf(await callTool(wire, 'remember', { chars: MAX_CHARS }));
    expect(tooLarge.isError).toBe(true);
    expect(tooLarge.text).toMatch(
      new RegExp(`^This call's requestState would be \\d+ characters, over the limit of ${MAX_CHARS}\\. `),
    );
    expect(tooLarge.text).toContain('keep large data server-side');
    expect(tooLarge.text).toContain('raise `state.maxChars` in createServer()');
    await expect.poll(() => wire.log().slice(logMark)).toContain('over the limit of 2048');
  });
});
