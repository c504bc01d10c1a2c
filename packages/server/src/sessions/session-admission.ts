/** What admission needs to know about an open 2025-era session. */
export interface SessionView {
  readonly id: string;
  /** The verified user, or `undefined` for an anonymous caller. */
  readonly principal: string | undefined;
  /** An anonymous caller's `callerKey` (by its address); `undefined` for a signed-in user. */
  readonly address: string | undefined;
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
  /** Sessions of every anonymous caller together. */
  readonly maxAnonymousSessions: number;
  /** Sessions of the anonymous callers of one address, so one address cannot take them all. */
  readonly maxSessionsPerAddress: number;
}

/** Which quota a refused `initialize` ran into. */
export type SessionQuota = 'user' | 'address' | 'anonymous' | 'server';

/**
 * Decides whether a new session for a caller (a signed-in `principal`, or an anonymous caller from
 * `address`) may open. Sessions with nothing in flight are evicted, least recently used first,
 * before anyone is refused: first within the caller's own quota (the user's; an anonymous caller's
 * address, then all anonymous callers together), then (for the server-wide cap) anonymous sessions
 * before any user's. A caller is refused only when every session in the quota it ran into is busy.
 */
export function admitSession(
  sessions: Iterable<SessionView>,
  caller: { readonly principal: string | undefined; readonly address: string | undefined },
  limits: SessionLimits,
): { readonly evict: readonly string[] } | { readonly refuse: SessionQuota } {
  const { principal, address } = caller;
  const all = [...sessions];
  const idle = all.filter((session) => session.inFlight === 0).sort((a, b) => a.lastSeen - b.lastSeen);
  const evict = new Set<string>();
  /** Makes room for one more of the sessions `belongs` picks (at most `limit`) by evicting idle ones. */
  const makeRoom = (belongs: (session: SessionView) => boolean, limit: number): boolean => {
    const open = all.filter((session) => belongs(session) && !evict.has(session.id)).length;
    const idleOnes = idle.filter((session) => belongs(session) && !evict.has(session.id));
    for (let excess = open + 1 - limit; excess > 0; excess--) {
      const oldest = idleOnes.shift();
      if (!oldest) return false;
      evict.add(oldest.id);
    }
    return true;
  };
  if (principal !== undefined) {
    if (!makeRoom((session) => session.principal === principal, limits.maxSessionsPerUser))
      return { refuse: 'user' };
  } else {
    const anonymous = (session: SessionView) => session.principal === undefined;
    if (
      !makeRoom((session) => anonymous(session) && session.address === address, limits.maxSessionsPerAddress)
    )
      return { refuse: 'address' };
    if (!makeRoom(anonymous, limits.maxAnonymousSessions)) return { refuse: 'anonymous' };
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
