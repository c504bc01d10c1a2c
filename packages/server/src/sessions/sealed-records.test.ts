import { describe, expect, it } from 'vitest';
import { SealedRecords } from './sealed-records.js';
import type { SessionRecord } from './session-router.js';

const keys = (fill: number) => [{ id: 'k1', secret: Buffer.alloc(32, fill).toString('base64') }];
const record: SessionRecord = {
  id: 'r1.6c0e2b0a-93a4-4a53-9d64-0f3c1c1a2b3c',
  owner: 'r1-abc',
  principal: 'alice@example.com',
  protocolVersion: '2025-11-25',
  capabilities: { elicitation: { form: {} } },
  expiresAt: 5,
};

describe('session records in Redis', () => {
  it('are stored under a hash of the session id, sealed: neither the id nor the user shows', async () => {
    const records = await SealedRecords.create(keys(1), 'parley:session:');
    const key = records.keyOf(record.id);
    expect(key).toMatch(/^parley:session:s:[A-Za-z0-9_-]{43}$/);
    expect(key).not.toContain('6c0e2b0a');
    const sealed = await records.seal(record);
    for (const clear of ['alice', 'r1-abc', '6c0e2b0a', 'elicitation']) expect(sealed).not.toContain(clear);
    expect(await records.open(record.id, sealed)).toEqual(record);
  });

  it('do not open when written without the keys, copied to another session, or not sealed', async () => {
    const records = await SealedRecords.create(keys(1), 'parley:session:');
    const forger = await SealedRecords.create(keys(2), 'parley:session:');
    const forged = await forger.seal({ ...record, owner: 'attacker-1' });
    expect(await records.open(record.id, forged)).toEqual({
      dropped:
        'a session record that does not open with the fleet keys (forged, altered, or copied from another session)',
    });
    const other = await records.seal({ ...record, id: 'r1.other' });
    expect(await records.open(record.id, other)).toEqual({
      dropped:
        'a session record that does not open with the fleet keys (forged, altered, or copied from another session)',
    });
    expect(await records.open(record.id, JSON.stringify({ ...record, owner: 'attacker-1' }))).toEqual({
      dropped: 'a session record that is not sealed',
    });
  });
});
