import type { AdapterPayload } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from './memory-adapter.js';

describe('memoryStorage: self-registered clients', () => {
  it('forgets a client nobody used after unusedClientTtlSeconds, and keeps one that was used as long as its grant', async () => {
    const storage = memoryStorage({ unusedClientTtlSeconds: 1 });
    const clients = new storage.Adapter('Client');
    const grants = new storage.Adapter('Grant');
    await clients.upsert('idle', { client_id: 'idle' } as AdapterPayload, 0);
    await clients.upsert('busy', { client_id: 'busy' } as AdapterPayload, 0);
    await grants.upsert('g1', { clientId: 'busy', accountId: 'alice' } as AdapterPayload, 3600);
    expect([storage.used('idle'), storage.used('busy')]).toEqual([false, true]);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await clients.find('idle')).toBeUndefined();
    expect(await clients.find('busy')).toMatchObject({ client_id: 'busy' });
    expect([storage.has('idle'), storage.has('busy')]).toEqual([false, true]);
  });

  it('does not count the registration access token as a use', async () => {
    const storage = memoryStorage({ unusedClientTtlSeconds: 60 });
    await new storage.Adapter('Client').upsert('c', { client_id: 'c' } as AdapterPayload, 0);
    await new storage.Adapter('RegistrationAccessToken').upsert('t', { clientId: 'c' } as AdapterPayload, 0);
    expect(storage.used('c')).toBe(false);
    storage.forget('c');
    expect(storage.has('c')).toBe(false);
  });
});
