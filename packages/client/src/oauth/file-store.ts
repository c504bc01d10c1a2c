import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OAuthStore, StoredAuth } from './store.js';

interface FileContents {
  readonly version: 1;
  readonly servers: Record<string, StoredAuth>;
}

/**
 * A store that keeps sign-ins in one JSON file only the user can read (mode 0600, in a
 * directory created 0700). Writes replace the file atomically, so a crash never leaves half a
 * file; concurrent writers in one process are serialized.
 *
 * @example
 * import { homedir } from 'node:os';
 * import { join } from 'node:path';
 * import { fileStore } from '@parley/client/oauth';
 *
 * const store = fileStore(join(homedir(), '.config', 'parley', 'tokens.json'));
 */
export function fileStore(path: string): OAuthStore {
  let queue: Promise<unknown> = Promise.resolve();
  function serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  }

  async function read(): Promise<FileContents> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, servers: {} };
      throw error;
    }
    const parsed = JSON.parse(text) as Partial<FileContents>;
    if (parsed.version !== 1 || typeof parsed.servers !== 'object' || parsed.servers === null) {
      throw new Error(`${path} is not a Parley token file; move it away and sign in again`);
    }
    return { version: 1, servers: parsed.servers };
  }

  async function write(contents: FileContents): Promise<void> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  return {
    load: (server) => serialized(async () => (await read()).servers[server]),
    save: (record) =>
      serialized(async () => {
        const contents = await read();
        await write({ version: 1, servers: { ...contents.servers, [record.server]: record } });
      }),
    delete: (server) =>
      serialized(async () => {
        const contents = await read();
        if (!(server in contents.servers)) return;
        const { [server]: _removed, ...servers } = contents.servers;
        await write({ version: 1, servers });
      }),
  };
}
