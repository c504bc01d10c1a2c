import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type NodeRun, runNode } from '@parley/testing';
import { describe, expect, it } from 'vitest';
import { stdioServer } from './support.js';

const example = fileURLToPath(new URL('../examples/line-host.mjs', import.meta.url));

function runExample(tool: string, typed: string): Promise<NodeRun> {
  return runNode([example, stdioServer().join(' '), tool], { stdin: typed });
}

describe('examples/line-host.mjs, the host in under 30 lines', () => {
  it('is under 30 lines', async () => {
    expect((await readFile(example, 'utf8')).trimEnd().split('\n').length).toBeLessThan(30);
  });

  it('answers one question at a time and prints the result', async () => {
    const run = await runExample('two_questions', 'y\nBo\ny\nblue\n');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'fixture asks (tool two_questions, round 1): Your name?',
        'Answer? [y/n] name: fixture asks (tool two_questions, round 1): Favourite color?',
        'Answer? [y/n] color: Bo likes blue',
        '',
      ].join('\n'),
    );
  });

  it('declines when the person says no', async () => {
    const run = await runExample('guarded', 'n\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/The person chose decline; nothing was done\n$/);
  });
});
