import { describe, expect, it } from 'vitest';
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
});
