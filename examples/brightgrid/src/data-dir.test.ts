import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataDir } from './data-dir.js';

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
