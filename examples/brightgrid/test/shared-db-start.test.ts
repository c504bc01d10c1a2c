// Issue 15, finding 8: replicas starting together on a fresh shared database crashed with
// SQLITE_BUSY. Several real processes open (create and seed) one new database at the same moment.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { DIST, freshDataDir } from './processes.js';

const OPEN = `
const { openStore } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'db.js')).href)});
const store = openStore({ dir: process.argv[1] });
process.stdout.write(String((await store.checkPassword('alice', 'wonderland'))?.name));
store.close();
`;

function openInProcess(dir: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', OPEN, dir]);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    // 'close', not 'exit': the output may still be on its way when the process has exited.
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

it('six processes starting at once on a fresh database all open it, seeded once', async () => {
  for (let round = 0; round < 2; round++) {
    const dir = freshDataDir();
    const results = await Promise.all(Array.from({ length: 6 }, () => openInProcess(dir)));
    for (const result of results) {
      expect(result.err).toBe('');
      expect(result.code).toBe(0);
      expect(result.out).toBe('alice');
    }
  }
});
