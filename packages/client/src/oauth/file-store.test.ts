import { lstat, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileStore } from './file-store.js';
import type { StoredAuth } from './store.js';

const record = (server: string, accessToken: string): StoredAuth => ({
  server,
  resource: server,
  issuer: 'https://as.example.com',
  client: { clientId: 'c1', tokenEndpointAuthMethod: 'none' },
  tokens: { accessToken },
});

describe('fileStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-tokens-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps records per server in a file only the user can read, in a private directory', async () => {
    const path = join(dir, 'nested', 'tokens.json');
    const store = fileStore(path);
    await store.save(record('https://a.example/mcp', 'token-a'));
    await store.save(record('https://b.example/mcp', 'token-b'));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'nested'))).mode & 0o777).toBe(0o700);
    const reopened = fileStore(path);
    expect((await reopened.load('https://a.example/mcp'))?.tokens?.accessToken).toBe('token-a');
    expect((await reopened.load('https://b.example/mcp'))?.tokens?.accessToken).toBe('token-b');
  });

  it('forgets one server and keeps the others', async () => {
    const path = join(dir, 'tokens.json');
    const store = fileStore(path);
    await store.save(record('https://a.example/mcp', 'token-a'));
    await store.save(record('https://b.example/mcp', 'token-b'));
    await store.delete('https://a.example/mcp');
    expect(await store.load('https://a.example/mcp')).toBeUndefined();
    expect(await store.load('https://b.example/mcp')).toBeDefined();
    expect(await readFile(path, 'utf8')).not.toContain('token-a');
  });

  it('serializes concurrent saves so none is lost', async () => {
    const store = fileStore(join(dir, 'tokens.json'));
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.save(record(`https://s${index}.example/mcp`, `t${index}`)),
      ),
    );
    for (let index = 0; index < 10; index++) {
      expect((await store.load(`https://s${index}.example/mcp`))?.tokens?.accessToken).toBe(`t${index}`);
    }
  });

  it('refuses a file that is not its own instead of overwriting it', async () => {
    const path = join(dir, 'tokens.json');
    await writeFile(path, '{"something":"else"}');
    await expect(fileStore(path).load('https://a.example/mcp')).rejects.toThrow(/not a Parley token file/);
  });

  // Issue 24's review: the token file replaced by a symlink to another of the user's files. Held:
  // a save writes a new file and renames it over the link, so the linked file is never written.
  it('replaces a token file turned into a symlink instead of writing through it', async () => {
    const path = join(dir, 'tokens.json');
    const store = fileStore(path);
    await store.save(record('https://a.example/mcp', 'token-a'));
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'the user’s own file\n', { mode: 0o644 });
    await rm(path);
    await symlink(victim, path);
    await fileStore(path)
      .save(record('https://b.example/mcp', 'token-b'))
      .catch(() => {});
    expect(await readFile(victim, 'utf8')).toBe('the user’s own file\n');
    expect((await stat(victim)).mode & 0o777).toBe(0o644);
    const now = await lstat(path);
    if (!now.isSymbolicLink()) {
      expect(now.mode & 0o777).toBe(0o600);
      expect(await readFile(path, 'utf8')).not.toContain('the user');
    }
  });
});
