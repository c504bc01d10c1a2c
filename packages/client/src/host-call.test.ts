import { describe, expect, it } from 'vitest';
import { callHost } from './host-call.js';

describe('callHost', () => {
  it('returns what the host answers', async () => {
    expect(await callHost(new AbortController().signal, 1000, async () => 42)).toEqual({
      kind: 'value',
      value: 42,
    });
  });

  it('times out even when the host ignores its signal, and aborts that signal', async () => {
    let seen: AbortSignal | undefined;
    const outcome = await callHost(new AbortController().signal, 30, (signal) => {
      seen = signal;
      return new Promise(() => {});
    });
    expect(outcome).toEqual({ kind: 'timeout' });
    expect(seen?.aborted).toBe(true);
  });

  it('rejects with the outer reason when the call ends first', async () => {
    const outer = new AbortController();
    const pending = callHost(outer.signal, 10_000, () => new Promise(() => {}));
    outer.abort(new Error('call cancelled'));
    await expect(pending).rejects.toThrow('call cancelled');
  });

  it('reports a host that throws as a host failure', async () => {
    await expect(
      callHost(new AbortController().signal, 1000, async () => {
        throw new Error('stdin closed');
      }),
    ).rejects.toMatchObject({
      kind: 'host',
      message: 'The host failed while showing a question: stdin closed',
    });
  });
});
