import type { Adapter, AdapterPayload } from 'oidc-provider';

/** Past this many entries, expired ones are swept on the next write. */
const SWEEP_AT = 10_000;

/**
 * oidc-provider's storage, in this process's memory: sign-ins, grants, codes, tokens and
 * registered clients last until the demo stops. Entries expire with the artefact they hold.
 * (oidc-provider's own memory adapter does the same but warns on every start.)
 */
export function memoryAdapter(): new (model: string) => Adapter {
  const entries = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const alive = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  return class MemoryAdapter implements Adapter {
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
      const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY;
      entries.set(this.#key(id), { payload, expiresAt });
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
}
