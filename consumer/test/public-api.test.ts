import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { npmInstall, pointAtTarballs, writeManifest } from '../src/project.js';
import { cleanEnv, run } from '../src/run.js';
import { exportedModules, ROOT } from '../src/workspace.js';

const packs = inject('packs');
const FIXTURE = join(ROOT, 'consumer', 'fixture');
const rootManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};
const modules = packs.flatMap((pack) => exportedModules(pack.manifest));
let project: string;
const servers: ChildProcess[] = [];

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'parley-consumer-'));
  for (const file of readdirSync(FIXTURE)) copyFileSync(join(FIXTURE, file), join(project, file));
  // Every module of every package, imported by name: each must resolve, with types, from the tarballs.
  writeFileSync(
    join(project, 'surface.ts'),
    `${modules.map((name, index) => `import * as m${index} from '${name}';`).join('\n')}\nexport const surface = [${modules.map((_, index) => `m${index}`).join(', ')}];\n`,
  );
  // Every peer dependency too, optional ones included, so every subpath's types can resolve.
  const peers = Object.assign({}, ...packs.map((pack) => pack.manifest.peerDependencies ?? {}));
  writeManifest(
    project,
    pointAtTarballs(
      {
        name: 'parley-consumer',
        private: true,
        type: 'module',
        dependencies: { ...peers, ...Object.fromEntries(packs.map((pack) => [pack.name, pack.version])) },
        devDependencies: {
          typescript: rootManifest.devDependencies.typescript!,
          '@types/node': rootManifest.devDependencies['@types/node']!,
        },
      },
      packs,
    ),
  );
  await npmInstall(project);
  // Type-checks (strict, nodenext, skipLibCheck off) the Node code without the DOM's types, and
  // builds it to dist/ (fixture/tsconfig.json); then every module, the browser ones too, with them.
  const tsc = join(project, 'node_modules', '.bin', 'tsc');
  await run(tsc, ['-p', 'tsconfig.json'], { cwd: project });
  await run(tsc, ['-p', 'tsconfig.surface.json'], { cwd: project });
});

afterAll(() => {
  for (const server of servers) server.kill();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Starts dist/server.js on HTTP and resolves to its endpoint URL, the first line it prints. */
async function startHttpServer(): Promise<string> {
  const server = spawn(process.execPath, ['dist/server.js'], {
    cwd: project,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  servers.push(server);
  const lines = createInterface({ input: server.stdout! });
  for await (const line of lines) return line.trim();
  throw new Error('dist/server.js ended before it printed its URL');
}

const node = (args: string[]) => run(process.execPath, args, { cwd: project });
const parley = (args: string[]) =>
  run(join(project, 'node_modules', '.bin', 'parley'), args, { cwd: project });
const STDIO = `${process.execPath} dist/server.js --stdio`;

describe('a project outside the workspace, type-checked (strict, nodenext, skipLibCheck off), built and run', () => {
  it('loads every module of every package in Node', async () => {
    const script = `${modules.map((name) => `await import('${name}');`).join('\n')}\nconsole.log('loaded ${modules.length}');\n`;
    writeFileSync(join(project, 'load.mjs'), script);
    expect((await node(['load.mjs'])).stdout.trim()).toBe(`loaded ${modules.length}`);
  });

  it('tests the server in-process with testClient on both eras', async () => {
    const lines = (await node(['dist/in-process.js'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { era: 'modern', text: 'order-2: 2 socks (modern)', asked: 1 },
      { era: 'handshake', text: 'order-2: 2 socks (handshake)', asked: 1 },
    ]);
  });

  describe.each(['modern', 'handshake'] as const)('on the %s era', (era) => {
    const expected = {
      era,
      server: 'consumer-shop',
      tools: ['order'],
      text: `order-2: 3 shirts as a gift (${era})`,
      asked: ['order'],
    };

    it('the client calls the server over HTTP', async () => {
      const url = await startHttpServer();
      expect(JSON.parse((await node(['dist/client.js', url, era])).stdout)).toEqual(expected);
    });

    it('the client calls the server over stdio', async () => {
      expect(JSON.parse((await node(['dist/client.js', STDIO, era])).stdout)).toEqual(expected);
    });

    it('the packed parley command calls it over HTTP and stdio, answering from a file', async () => {
      const url = await startHttpServer();
      expect((await parley(['tools', url, '--era', era])).stdout).toContain('order');
      for (const target of [url, STDIO]) {
        const args = [
          'call',
          target,
          'order',
          '--arg',
          'item=hats',
          '--answers',
          'answers.json',
          '--era',
          era,
        ];
        expect((await parley(args)).stdout.trim()).toBe(`order-2: 4 hats (${era})`);
      }
    });
  });
});
