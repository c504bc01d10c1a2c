// Issue 17: `parley` answers a server's sampling and roots requests in a real pseudo-terminal
// (tmux), on both eras, against a Parley server whose tools call ctx.sample and ctx.roots. The
// sampling request is shown as a model request from that server, inert; the person approves and
// types the reply, or declines, and nothing is answered without them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runParley } from './run-parley.js';
import { Terminal } from './tmux.js';

const fixture = fileURLToPath(new URL('./fixtures/sampling-server.mjs', import.meta.url));
const server = `${JSON.stringify(process.execPath)} ${JSON.stringify(fixture)}`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-sampling-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let runs = 0;
/** `parley call <server> <tool> --era <era>` in a terminal: its stdout in a file, its raw terminal bytes in another. */
async function call(era: string, tool: string, ...flags: string[]) {
  const stdoutFile = join(dir, `out-${++runs}.txt`);
  const raw = join(dir, `raw-${runs}.bin`);
  const terminal = await Terminal.start(
    [process.execPath, BIN, 'call', server, tool, '--era', era, ...flags],
    {
      stdoutFile,
      rawOutput: raw,
    },
  );
  return {
    terminal,
    stdout: () => readFile(stdoutFile, 'utf8'),
    raw: async () => (await readFile(raw)).toString('latin1'),
  };
}

const QUESTION = '◆  Answer this model request?';

/** The request is on screen, as what it is, with every hostile string inert. */
async function expectRequestShown(terminal: Terminal): Promise<void> {
  const screen = await terminal.waitFor(QUESTION);
  expect(screen).toContain(
    'Sampling Fixture (sampling-fixture) requests a model reply (sampling) · tool "summarise" · round 1',
  );
  expect(screen).toContain('No model runs here');
  expect(screen).toContain('System prompt:');
  expect(screen).toContain('You are terse.␛]0;OWNED␛\\');
  expect(screen).toContain('Summarise the ticket.␛[2J␛[3J WIPED');
  expect(screen).toContain('␛[1A␛[2K◇  Brightgrid FORGED');
  expect(screen).toContain('invoice<U+202E>gpj.exe BIDI');
  expect(screen).toContain('[image image/png, 8 bytes: not shown]');
  expect(screen).toContain('at most 64 tokens');
  // The decline is where the cursor starts: Enter alone never sends anything.
  expect(screen).toMatch(/● Decline/);
}

function expectInert(raw: string): void {
  expect(raw).not.toContain('\x1b]');
  expect(raw).not.toContain('\x1b[2J');
  expect(raw).not.toContain('\x1b[3J');
  expect(raw).not.toContain('\x1b[1A\x1b[2K\xe2\x97\x87  Brightgrid');
  expect(raw).not.toContain('\xe2\x80\xae');
  expect(raw).toContain('\xe2\x90\x9b[2J'); // "␛[2J" as text
}

describe.each(['modern', 'handshake'])('sampling in the terminal on the %s era', (era) => {
  it('shows the request inert, and sends the reply the person approved and typed', async () => {
    const { terminal, stdout, raw } = await call(era, 'summarise');
    try {
      await expectRequestShown(terminal);
      await terminal.press('Up', 'Enter');
      await terminal.waitFor('◆  The reply to send as the model’s message');
      await terminal.press('Enter', 'Enter'); // an empty reply is refused, and asked again
      await terminal.waitFor('Type a reply, or press Escape to decline.');
      await terminal.type('A refund for order 42.');
      await terminal.press('Enter');
      await terminal.type('Ask for the receipt.');
      await terminal.press('Enter', 'Enter');
      expect(await terminal.exitCode()).toBe(0);
      expect(await stdout()).toBe('model human said: A refund for order 42.\nAsk for the receipt.\n');
      expectInert(await raw());
      expect(await terminal.title()).not.toContain('OWNED');
    } finally {
      await terminal.close();
    }
  });

  it('declines: the server hears "User rejected" on 2025 eras; on 2026-07-28 the call is not retried', async () => {
    const { terminal, stdout, raw } = await call(era, 'summarise');
    try {
      await expectRequestShown(terminal);
      await terminal.press('Enter');
      if (era === 'handshake') {
        // ctx.sample threw SamplingDeclinedError, which the tool caught.
        expect(await terminal.exitCode()).toBe(0);
        expect(await stdout()).toBe('declined (SamplingDeclinedError, code -1)\n');
      } else {
        expect(await terminal.exitCode()).toBe(3);
        expect(await stdout()).toBe('');
        const screen = await terminal.screen();
        expect(screen).toContain(
          'The person declined sampling-fixture\'s sampling request during tool "summarise"; on MCP 2026-07-28 a declined sampling request is not answered, so the call was not retried',
        );
      }
      expectInert(await raw());
    } finally {
      await terminal.close();
    }
  });

  it('Escape declines too', async () => {
    const { terminal, stdout } = await call(era, 'summarise');
    try {
      await terminal.waitFor(QUESTION);
      await terminal.press('Up', 'Enter');
      await terminal.waitFor('◆  The reply to send as the model’s message');
      await terminal.press('Escape');
      expect(await terminal.exitCode()).toBe(era === 'handshake' ? 0 : 3);
      if (era === 'handshake') expect(await stdout()).toBe('declined (SamplingDeclinedError, code -1)\n');
    } finally {
      await terminal.close();
    }
  });

  it('answers a roots request with the --root directories', async () => {
    const { terminal, stdout } = await call(era, 'roots', '--root', '/tmp', '--root', '/var/log');
    try {
      expect(await terminal.exitCode()).toBe(0);
      expect(await stdout()).toBe('tmp file:///tmp\nlog file:///var/log\n');
    } finally {
      await terminal.close();
    }
  });

  it('declares sampling in a terminal, and not without one (no terminal, or an answers file)', async () => {
    const { terminal, stdout } = await call(era, 'can_sample');
    try {
      expect(await terminal.exitCode()).toBe(0);
      expect(await stdout()).toBe('sampling declared\n');
    } finally {
      await terminal.close();
    }
    const piped = await runParley(['call', server, 'can_sample', '--era', era]);
    expect(piped).toMatchObject({ code: 0, stdout: 'no sampling declared\n' });
    const answers = join(dir, 'answers.json');
    await writeFile(answers, '{}');
    const scripted = await runParley(['call', server, 'can_sample', '--era', era, '--answers', answers]);
    expect(scripted).toMatchObject({ code: 0, stdout: 'no sampling declared\n' });
  });
});
