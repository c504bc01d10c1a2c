import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearDemoData, resolveDataDir } from './data-dir.js';
import { openStore } from './db.js';

describe('resolveDataDir', () => {
  it('uses BRIGHTGRID_DATA, creating it private to this user', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'brightgrid-dir-')), 'nested', 'data');
    expect(resolveDataDir({ BRIGHTGRID_DATA: dir })).toBe(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('falls back to a folder of this user in the temp folder', () => {
    expect(resolveDataDir({})).toMatch(/brightgrid-[^/\\]+$/);
  });

  it('refuses a file in place of the folder, naming the fix', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'brightgrid-dir-')), 'file');
    writeFileSync(file, '');
    expect(() => resolveDataDir({ BRIGHTGRID_DATA: file })).toThrow(/set BRIGHTGRID_DATA to a folder/);
  });
});

describe('clearDemoData (npm start -- --fresh)', () => {
  it('forgets what earlier runs booked or cancelled: the next open seeds the demo data again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'brightgrid-fresh-'));
    const before = openStore({ dir });
    before.orders.cancel('alice', 1001, 'call-1.cancel');
    before.addReturn('alice', {
      reason: 'Broken',
      email: 'alice@brightgrid.example',
      boxes: 1,
      pickupDate: '2030-01-10',
      giftWrap: false,
    });
    before.close();
    const reopened = openStore({ dir });
    expect(reopened.orders.get('alice', 1001)?.status).toBe('cancelled');
    reopened.close();

    clearDemoData(dir);
    const after = openStore({ dir });
    expect(after.orders.get('alice', 1001)?.status).toBe('open');
    expect(after.returns('alice')).toEqual([]);
    after.close();
    // Nothing to clear is no failure.
    clearDemoData(join(dir, 'missing'));
  });
});
