import { describe, expect, it } from 'vitest';
import { admitSession, type SessionView } from './session-admission.js';

const limits = { maxSessions: 6, maxSessionsPerUser: 2, maxAnonymousSessions: 3 };
const session = (id: string, principal: string | undefined, lastSeen: number, inFlight = 0): SessionView => ({
  id,
  principal,
  lastSeen,
  inFlight,
});

describe('admitSession', () => {
  it('admits under every quota without evicting anything', () => {
    expect(admitSession([session('a1', 'alice', 1)], 'alice', limits)).toEqual({ evict: [] });
  });

  it('evicts the caller’s own least recently used idle session at its quota', () => {
    const sessions = [session('a1', 'alice', 5), session('a2', 'alice', 1), session('b1', 'bob', 0)];
    expect(admitSession(sessions, 'alice', limits)).toEqual({ evict: ['a2'] });
  });

  it('refuses only when every session in the quota has something in flight', () => {
    const sessions = [session('a1', 'alice', 5, 1), session('a2', 'alice', 1, 2)];
    expect(admitSession(sessions, 'alice', limits)).toEqual({ refuse: 'user' });
  });

  it('keeps anonymous callers in their own pool: they evict each other, never a user', () => {
    const sessions = [session('x1', undefined, 1), session('x2', undefined, 2), session('x3', undefined, 3)];
    expect(admitSession(sessions, undefined, limits)).toEqual({ evict: ['x1'] });
    const busy = sessions.map((one) => ({ ...one, inFlight: 1 }));
    expect(admitSession(busy, undefined, limits)).toEqual({ refuse: 'anonymous' });
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
    expect(admitSession(sessions, 'erin', limits)).toEqual({ evict: ['x1'] });
    const noIdleAnonymous = sessions.map((one) => (one.id === 'x1' ? { ...one, inFlight: 1 } : one));
    expect(admitSession(noIdleAnonymous, 'erin', limits)).toEqual({ evict: ['a1'] });
    const allBusy = sessions.map((one) => ({ ...one, inFlight: 1 }));
    expect(admitSession(allBusy, 'erin', limits)).toEqual({ refuse: 'server' });
  });
});
