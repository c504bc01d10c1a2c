import { describe, expect, it } from 'vitest';
import { admitSession, type SessionView } from './session-admission.js';

const limits = { maxSessions: 6, maxSessionsPerUser: 2, maxAnonymousSessions: 3, maxSessionsPerAddress: 3 };
const session = (
  id: string,
  principal: string | undefined,
  lastSeen: number,
  inFlight = 0,
  address: string | undefined = principal === undefined ? '10.0.0.1' : undefined,
): SessionView => ({ id, principal, address, lastSeen, inFlight });
const user = (principal: string) => ({ principal, address: undefined });
const from = (address: string) => ({ principal: undefined, address });

describe('admitSession', () => {
  it('admits under every quota without evicting anything', () => {
    expect(admitSession([session('a1', 'alice', 1)], user('alice'), limits)).toEqual({ evict: [] });
  });

  it('evicts the caller’s own least recently used idle session at its quota', () => {
    const sessions = [session('a1', 'alice', 5), session('a2', 'alice', 1), session('b1', 'bob', 0)];
    expect(admitSession(sessions, user('alice'), limits)).toEqual({ evict: ['a2'] });
  });

  it('refuses only when every session in the quota has something in flight', () => {
    const sessions = [session('a1', 'alice', 5, 1), session('a2', 'alice', 1, 2)];
    expect(admitSession(sessions, user('alice'), limits)).toEqual({ refuse: 'user' });
  });

  it('keeps anonymous callers in their own pool: they evict each other, never a user', () => {
    const sessions = [
      session('x1', undefined, 1, 0, '10.0.0.1'),
      session('x2', undefined, 2, 0, '10.0.0.2'),
      session('x3', undefined, 3, 0, '10.0.0.3'),
    ];
    expect(admitSession(sessions, from('10.0.0.4'), limits)).toEqual({ evict: ['x1'] });
    const busy = sessions.map((one) => ({ ...one, inFlight: 1 }));
    expect(admitSession(busy, from('10.0.0.4'), limits)).toEqual({ refuse: 'anonymous' });
  });

  it('at the server-wide cap, evicts idle anonymous sessions before users’ sessions', () => {
    const sessions = [
      session('a1', 'alice', 0),
      session('b1', 'bob', 1),
      session('c1', 'carol', 2),
      session('d1', 'dave', 3),
      session('x1', undefined, 9),
      session('x2', undefined, 8, 1),
    ];
    expect(admitSession(sessions, user('erin'), limits)).toEqual({ evict: ['x1'] });
    const noIdleAnonymous = sessions.map((one) => (one.id === 'x1' ? { ...one, inFlight: 1 } : one));
    expect(admitSession(noIdleAnonymous, user('erin'), limits)).toEqual({ evict: ['a1'] });
    const allBusy = sessions.map((one) => ({ ...one, inFlight: 1 }));
    expect(admitSession(allBusy, user('erin'), limits)).toEqual({ refuse: 'server' });
  });

  it('counts anonymous callers per address: one address at its quota is refused, another still gets in', () => {
    const perAddress = { ...limits, maxAnonymousSessions: 10, maxSessionsPerAddress: 2 };
    const busy = [session('x1', undefined, 1, 1), session('x2', undefined, 2, 1)];
    expect(admitSession(busy, from('10.0.0.1'), perAddress)).toEqual({ refuse: 'address' });
    expect(admitSession(busy, from('10.0.0.2'), perAddress)).toEqual({ evict: [] });
    // At its quota with an idle session, an address evicts its own, not another address's.
    const mixed = [
      session('x1', undefined, 1, 0),
      session('x2', undefined, 2, 1),
      session('y1', undefined, 0, 0, '10.0.0.2'),
    ];
    expect(admitSession(mixed, from('10.0.0.1'), perAddress)).toEqual({ evict: ['x1'] });
  });
});
