import type { Adapter, AdapterPayload } from 'oidc-provider';

/** Past this many entries, expired ones are swept on the next write. */
const SWEEP_AT = 10_000;

/** Artefacts that show a registered client was used: someone allowed it, or it got tokens. */
const USES = new Set(['Grant', 'AccessToken', 'RefreshToken', 'ClientCredentials']);

/** oidc-provider's storage in memory, and what Brightgrid ID asks it about registered clients. */
export interface MemoryStorage {
  readonly Adapter: new (model: string) => Adapter;
  /** Whether a self-registered client is still kept. */
  has(clientId: string): boolean;
  /** Whether a self-registered client was used (see {@link USES}). */
  used(clientId: string): boolean;
  /** Forgets a self-registered client. */
  forget(clientId: string): void;
}

/**
 * oidc-provider's storage, in this process's memory: sign-ins, grants, codes, tokens and
 * registered clients last until the demo stops. Entries expire with the artefact they hold; a
 * self-registered client nobody used expires after `unusedClientTtlSeconds`, and one that was used
 * lives as long as what it was given. (oidc-provider's own memory adapter keeps clients forever,
 * and warns on every start.)
 */
export function memoryStorage(options: { readonly unusedClientTtlSeconds: number }): MemoryStorage {
  const entries = new Map<string, { payload: AdapterPayload; expiresAt: number; used?: boolean }>();
  const alive = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  /** A use of the client extends its life to that of what it was given. */
  const usedBy = (clientId: string, until: number) => {
    const client = entries.get(`Client:${clientId}`);
    if (client === undefined || alive(`Client:${clientId}`) === undefined) return;
    client.used = true;
    client.expiresAt = Math.max(client.expiresAt, until);
  };
  const Adapter = class MemoryAdapter implements Adapter {
    readonly #model: string;
    constructor(model: string) {
      this.#model = model;
    }
    #key(id: string) {
      return `${this.#model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      if (entries.size > SWEEP_AT) {
        const now = Date.now();
        for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
      }
      let expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY;
      if (this.#model === 'Client' || this.#model === 'RegistrationAccessToken') {
        const kept = this.#model === 'Client' ? entries.get(this.#key(id)) : undefined;
        expiresAt = kept?.used ? kept.expiresAt : Date.now() + options.unusedClientTtlSeconds * 1000;
        entries.set(this.#key(id), { payload, expiresAt, ...(kept?.used && { used: true }) });
        return;
      }
      entries.set(this.#key(id), { payload, expiresAt });
      if (USES.has(this.#model) && typeof payload.clientId === 'string') usedBy(payload.clientId, expiresAt);
      if (payload.grantId !== undefined) {
        const grant = `grant:${payload.grantId}`;
        const members = (alive(grant) as unknown as { keys?: string[] } | undefined)?.keys ?? [];
        entries.set(grant, { payload: { keys: [...members, this.#key(id)] } as AdapterPayload, expiresAt });
      }
      if (payload.uid !== undefined)
        entries.set(`uid:${payload.uid}`, { payload: { id } as AdapterPayload, expiresAt });
      if (payload.userCode !== undefined)
        entries.set(`userCode:${payload.userCode}`, { payload: { id } as AdapterPayload, expiresAt });
    }
    async find(id: string) {
      return alive(this.#key(id));
    }
    async findByUid(uid: string) {
      const pointer = alive(`uid:${uid}`) as { id?: string } | undefined;
      return pointer?.id === undefined ? undefined : alive(this.#key(pointer.id));
    }
    async findByUserCode(userCode: string) {
      const pointer = alive(`userCode:${userCode}`) as { id?: string } | undefined;
      return pointer?.id === undefined ? undefined : alive(this.#key(pointer.id));
    }
    async consume(id: string) {
      const payload = alive(this.#key(id));
      if (payload !== undefined) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      entries.delete(this.#key(id));
    }
    async revokeByGrantId(grantId: string) {
      const grant = `grant:${grantId}`;
      for (const key of (alive(grant) as unknown as { keys?: string[] } | undefined)?.keys ?? [])
        entries.delete(key);
      entries.delete(grant);
    }
  };
  return {
    Adapter,
    has: (clientId) => alive(`Client:${clientId}`) !== undefined,
    used: (clientId) =>
      alive(`Client:${clientId}`) !== undefined && entries.get(`Client:${clientId}`)?.used === true,
    forget: (clientId) => void entries.delete(`Client:${clientId}`),
  };
}
