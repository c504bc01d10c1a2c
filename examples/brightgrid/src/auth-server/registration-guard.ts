import type { KoaContextWithOIDC } from 'oidc-provider';
import type { MemoryStorage } from './memory-adapter.js';

/** How much self-registration (RFC 7591) one address gets. */
export interface RegistrationLimits {
  /** Registrations one address may make per minute (429 with Retry-After past it). Default 30. */
  readonly perAddressPerMinute: number;
  /**
   * Registrations nobody used yet that one address may hold: registering another forgets the oldest
   * of them. Default 50.
   */
  readonly maxUnusedPerAddress: number;
  /** How long a registration nobody used is kept, in seconds. Default 3600. */
  readonly unusedTtlSeconds: number;
}

export const REGISTRATION_LIMITS: RegistrationLimits = {
  perAddressPerMinute: 30,
  maxUnusedPerAddress: 50,
  unusedTtlSeconds: 3600,
};

const MINUTE_MS = 60_000;

/**
 * Guards Brightgrid ID's open registration endpoint, as Koa middleware in front of oidc-provider:
 * registrations are rate-limited per address, and an address holds at most `maxUnusedPerAddress`
 * registrations nobody signed in with (with the storage expiring unused ones), so nobody can fill
 * the server's memory with apps, and nobody is locked out by another's.
 */
export function registrationGuard(
  storage: Pick<MemoryStorage, 'has' | 'used' | 'forget'>,
  limits: RegistrationLimits = REGISTRATION_LIMITS,
  now: () => number = Date.now,
) {
  const recent = new Map<string, number[]>();
  const unused = new Map<string, string[]>();
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    if (ctx.method !== 'POST' || ctx.path !== '/reg') return next();
    const address = ctx.req.socket.remoteAddress ?? 'unknown';
    const at = now();
    if (recent.size > 10_000) {
      for (const [key, times] of recent)
        if (times.every((time) => time <= at - MINUTE_MS)) recent.delete(key);
    }
    const times = (recent.get(address) ?? []).filter((time) => time > at - MINUTE_MS);
    if (times.length >= limits.perAddressPerMinute) {
      const wait = Math.max(1, Math.ceil((times[0]! + MINUTE_MS - at) / 1000));
      ctx.status = 429;
      ctx.set('retry-after', String(wait));
      ctx.body = {
        error: 'temporarily_unavailable',
        error_description: `Too many registrations from this address; try again in ${wait} seconds, or reuse the app you registered.`,
      };
      return;
    }
    times.push(at);
    recent.set(address, times);
    await next();
    const clientId =
      ctx.status === 201 ? (ctx.body as { client_id?: unknown } | undefined)?.client_id : undefined;
    if (typeof clientId !== 'string') return;
    if (unused.size > 10_000) {
      for (const [key, ids] of unused)
        if (!ids.some((id) => storage.has(id) && !storage.used(id))) unused.delete(key);
    }
    const held = [
      ...(unused.get(address) ?? []).filter((id) => storage.has(id) && !storage.used(id)),
      clientId,
    ];
    while (held.length > limits.maxUnusedPerAddress) storage.forget(held.shift()!);
    unused.set(address, held);
  };
}
