/** What admission needs to know about an open 2025-era session. */
export interface SessionView {
  readonly id: string;
  /** The verified user, or `undefined` for an anonymous caller. */
  readonly principal: string | undefined;
  readonly lastSeen: number;
  /** POST requests whose responses have not ended (a call waiting on an answer among them). */
  readonly inFlight: number;
}

/** How many 2025-era sessions may be open. */
export interface SessionLimits {
  /** All sessions together. */
  readonly maxSessions: number;
  /** Sessions of one signed-in user. */
  readonly maxSessionsPerUser: number;
  /** Sessions of every anonymous caller together (they cannot be told apart). */
  readonly maxAnonymousSessions: number;
}

/** Which quota a refused `initialize` ran into. */
export type SessionQuota = 'user' | 'anonymous' | 'server';

/**
 * Decides whether a new session for `principal` may open. Sessions with nothing in flight are
 * evicted, least recently used first, before anyone is refused: first within the caller's own
 * quota, then (for the server-wide cap) anonymous sessions before any user's. A caller is refused
 * only when every session in the quota it ran into is busy.
 */
export function admitSession(
  sessions: Iterable<SessionView>,
  principal: string | undefined,
  limits: SessionLimits,
): { readonly evict: readonly string[] } | { readonly refuse: SessionQuota } {
  const all = [...sessions];
  const idle = all.filter((session) => session.inFlight === 0).sort((a, b) => a.lastSeen - b.lastSeen);
  const evict = new Set<string>();
  const own = all.filter((session) => session.principal === principal);
  const ownLimit = principal === undefined ? limits.maxAnonymousSessions : limits.maxSessionsPerUser;
  const ownIdle = idle.filter((session) => session.principal === principal);
  for (let excess = own.length + 1 - ownLimit; excess > 0; excess--) {
    const oldest = ownIdle.shift();
    if (!oldest) return { refuse: principal === undefined ? 'anonymous' : 'user' };
    evict.add(oldest.id);
  }
  const others = [
    ...idle.filter((session) => session.principal === undefined),
    ...idle.filter((session) => session.principal !== undefined),
  ].filter((session) => !evict.has(session.id));
  for (let excess = all.length - evict.size + 1 - limits.maxSessions; excess > 0; excess--) {
    const oldest = others.shift();
    if (!oldest) return { refuse: 'server' };
    evict.add(oldest.id);
  }
  return { evict: [...evict] };
}
