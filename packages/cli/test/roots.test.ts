import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runParley } from './run-parley.js';

// `parley` declares roots: the current directory by default, `--root` directories, or none with
// `--no-roots`; the server's tool reads them with ctx.roots(), on both eras.
const server = `node "${fileURLToPath(new URL('./fixtures/parley-server.mjs', import.meta.url))}"`;
let answers: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'parley-roots-'));
  answers = join(dir, 'none.json');
  await writeFile(answers, '{}');
});

describe.each(['modern', 'handshake'])('roots on the %s era', (era) => {
  const call = (...flags: string[]) =>
    runParley(['call', server, 'roots', '--answers', answers, '--era', era, ...flags]);

  it('declares the current directory by default', async () => {
    const cwd = process.cwd();
    expect(await call()).toMatchObject({
      code: 0,
      stdout: `${basename(cwd)} ${pathToFileURL(cwd).href}\n`,
    });
  });

  it('declares the --root directories instead, each resolved from the current directory', async () => {
    const run = await call('--root', '/tmp', '--root', 'docs');
    expect(run).toMatchObject({
      code: 0,
      stdout: `tmp file:///tmp\ndocs ${pathToFileURL(join(process.cwd(), 'docs')).href}\n`,
    });
  });

  it('declares no roots with --no-roots', async () => {
    expect(await call('--no-roots')).toMatchObject({ code: 0, stdout: 'no roots declared\n' });
  });
});

it('refuses --root with --no-roots', async () => {
  const run = await runParley(['call', server, 'roots', '--root', '.', '--no-roots']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('--root and --no-roots contradict each other; use one');
});
