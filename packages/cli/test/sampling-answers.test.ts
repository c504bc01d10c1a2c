import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParley } from './run-parley.js';

// An --answers file that scripts a sampling reply (a CreateMessageResult keyed by the ctx.sample
// key) makes `parley` declare sampling and send that reply; a file without one declares none.
const fixture = fileURLToPath(new URL('./fixtures/sampling-server.mjs', import.meta.url));
const server = `${JSON.stringify(process.execPath)} ${JSON.stringify(fixture)}`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-sampling-answers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function answersFile(name: string, answers: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(answers));
  return path;
}

describe.each(['modern', 'handshake'])('sampling from an answers file on the %s era', (era) => {
  it('sends the scripted reply', async () => {
    const answers = await answersFile(`reply-${era}.json`, {
      summary: { role: 'assistant', content: { type: 'text', text: 'Scripted summary.' }, model: 'script' },
    });
    const run = await runParley(['call', server, 'summarise', '--era', era, '--answers', answers]);
    expect(run).toMatchObject({ code: 0, stdout: 'model script said: Scripted summary.\n' });
  });

  it('declares no sampling when the file scripts none', async () => {
    const answers = await answersFile(`none-${era}.json`, { summary: { action: 'decline' } });
    const run = await runParley(['call', server, 'can_sample', '--era', era, '--answers', answers]);
    expect(run).toMatchObject({ code: 0, stdout: 'no sampling declared\n' });
  });
});
