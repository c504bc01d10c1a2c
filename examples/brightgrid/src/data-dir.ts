import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * Where Brightgrid keeps its database: `BRIGHTGRID_DATA` when set, else a folder of this user's in
 * the system temp folder, so a return booked through one `parley call` can be listed by the next.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.BRIGHTGRID_DATA || join(tmpdir(), `brightgrid-${userInfo().username}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new Error(
      `Cannot use ${dir} for Brightgrid's data (${(error as Error).message}); set BRIGHTGRID_DATA to a folder.`,
    );
  }
  const stat = statSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a folder; set BRIGHTGRID_DATA to a folder.`);
  // A shared temp folder: refuse a folder someone else made in our place.
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new Error(`${dir} belongs to another user; set BRIGHTGRID_DATA to a folder of yours.`);
  }
  return dir;
}

/** The files of Brightgrid's database in a data folder (SQLite keeps two beside it in WAL mode). */
const DATABASE_FILES = ['brightgrid.sqlite', 'brightgrid.sqlite-wal', 'brightgrid.sqlite-shm'];

/**
 * Forgets everything booked in `dir` (`npm start -- --fresh`): the database goes, and the next open
 * seeds the demo data again (alice's orders 1001 and 1002 open, no returns, no flights).
 */
export function clearDemoData(dir: string): void {
  for (const file of DATABASE_FILES) rmSync(join(dir, file), { force: true });
}
