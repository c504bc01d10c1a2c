import type { ParleyServer } from '@parley/server';
import { httpWire } from './http-wire.js';
import type { ModernWire } from './modern-envelope.js';

export interface InProcess {
  readonly url: string;
  /** A 2026-07-28 connection (`Authorization: Bearer <user>` authenticates as that user). */
  readonly wire: ModernWire;
  close(): Promise<void>;
}

/** Serves `server` on loopback HTTP in this process, with the fixtures' bearer-user authentication. */
export async function serveInProcess(server: ParleyServer): Promise<InProcess> {
  const listening = await server.listen({
    authenticate(request) {
      const match = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '');
      if (!match) return undefined;
      const user = match[1]!;
      return { token: user, clientId: user, scopes: [], extra: { sub: user } };
    },
  });
  return { url: listening.url, wire: httpWire(listening.url), close: () => listening.close() };
}
