import { describe, expect, it, vi } from 'vitest';
import { LabState } from './lab-state.js';
import { SignIns } from './sign-ins.js';

function setup() {
  const state = new LabState();
  state.putServer({ id: 's1', target: 'http://127.0.0.1:1/mcp', eraChoice: 'auto', status: 'connecting' });
  return { state, signIns: new SignIns(state) };
}

const authorization = (state: string) => new URL(`http://127.0.0.1:2/auth?client_id=c&state=${state}`);

describe('SignIns', () => {
  it('shows the authorization address on the server until the browser comes back with its state', async () => {
    const { state, signIns } = setup();
    const waiting = signIns.wait('s1', authorization('abc'));
    expect(state.snapshot().servers[0]?.signIn).toEqual({
      url: 'http://127.0.0.1:2/auth?client_id=c&state=abc',
      origin: 'http://127.0.0.1:2',
    });
    expect(signIns.complete(new URL('http://127.0.0.1:3/oauth/callback?code=x&state=other'))).toBe(false);
    expect(signIns.complete(new URL('http://127.0.0.1:3/oauth/callback?code=x&state=abc'))).toBe(true);
    expect((await waiting).searchParams.get('code')).toBe('x');
    expect(state.snapshot().servers[0]?.signIn).toBeUndefined();
    // A callback works once.
    expect(signIns.complete(new URL('http://127.0.0.1:3/oauth/callback?code=x&state=abc'))).toBe(false);
  });

  it('stops waiting when the server is disconnected', async () => {
    const { signIns } = setup();
    const waiting = signIns.wait('s1', authorization('abc'));
    signIns.cancel('s1');
    await expect(waiting).rejects.toThrow('The sign-in was stopped');
    expect(signIns.complete(new URL('http://127.0.0.1:3/oauth/callback?state=abc'))).toBe(false);
  });

  it('refuses an authorization request without state', async () => {
    const { signIns } = setup();
    await expect(signIns.wait('s1', new URL('http://127.0.0.1:2/auth'))).rejects.toThrow('no state');
  });

  it('gives a person 10 minutes from when a lab page was open, not from when the lab started', async () => {
    vi.useFakeTimers();
    try {
      const { signIns } = setup();
      const waiting = signIns.wait('s1', authorization('abc'));
      let failure: unknown;
      waiting.catch((error: unknown) => {
        failure = error;
      });
      // Nobody has the lab open yet (npm start, then coffee): no clock runs.
      await vi.advanceTimersByTimeAsync(30 * 60_000);
      expect(failure).toBeUndefined();
      signIns.pageOpened();
      await vi.advanceTimersByTimeAsync(9 * 60_000);
      expect(failure).toBeUndefined();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(String(failure)).toContain('Nobody finished signing in within 10 minutes');
      // Once a page was open, a new sign-in has its 10 minutes at once.
      const next = signIns.wait('s1', authorization('def'));
      const nextFailed = expect(next).rejects.toThrow('within 10 minutes');
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      await nextFailed;
    } finally {
      vi.useRealTimers();
    }
  });
});
