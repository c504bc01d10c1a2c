// Issue 15, finding 1: a malicious server's text must reach the terminal inert. The real `parley`
// runs in a real pseudo-terminal (tmux) against a hostile server process; tmux hands every byte
// parley wrote to the terminal to a file, and the test reads those raw bytes.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './run-parley.js';
import { Terminal } from './tmux.js';

const hostile = `${JSON.stringify(process.execPath)} ${JSON.stringify(
  fileURLToPath(new URL('./fixtures/hostile-server.mjs', import.meta.url)),
)}`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-hostile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let runs = 0;
/** Runs `parley <args>` in a terminal, recording the raw bytes it writes there. */
async function inTerminal(args: readonly string[]) {
  const raw = join(dir, `raw-${++runs}.bin`);
  const terminal = await Terminal.start([process.execPath, BIN, ...args], { rawOutput: raw });
  return { terminal, raw: async () => (await readFile(raw)).toString('latin1') };
}

/**
 * What the attacks would have sent had they got through, as raw bytes. Parley's own prompts (clack)
 * move the cursor and erase lines to redraw, so the forged header is looked for with its payload.
 */
const C1_IN_UTF8 = Array.from({ length: 32 }, (_, index) => `\xc2${String.fromCharCode(0x80 + index)}`);
const FORBIDDEN: Record<string, readonly string[]> = {
  'cursor-up + erase-line forging a header': ['\x1b[1A\x1b[2K\xe2\x97\x87  Brightgrid'],
  'an OSC sequence (8 hyperlink, 52 clipboard, 0 window title)': ['\x1b]'],
  'clear-screen or clear-scrollback': ['\x1b[2J', '\x1b[3J'],
  'a C1 control (CSI, OSC, ST) in UTF-8': C1_IN_UTF8,
  'a bidi override (U+202E) in UTF-8': ['\xe2\x80\xae'],
};

function expectInert(raw: string): void {
  for (const [attack, sequences] of Object.entries(FORBIDDEN)) {
    expect(
      sequences.some((sequence) => raw.includes(sequence)),
      `the terminal received ${attack}`,
    ).toBe(false);
  }
  // Each attack's payload did arrive, shown as text ("␛" is U+241B, e2 90 9b in UTF-8).
  expect(raw).toContain('\xe2\x90\x9b[1A\xe2\x90\x9b[2K');
}

describe('parley against a server that sends terminal escapes', () => {
  it('parley tools prints every tool description inert on a terminal', async () => {
    const { terminal, raw } = await inTerminal(['tools', hostile]);
    try {
      expect(await terminal.exitCode()).toBe(0);
      const bytes = await raw();
      expectInert(bytes);
      for (const marker of ['WIPED', 'FORGED', 'HIDDENLINK', 'CLIPBOARD', 'C1CSI', 'BIDI']) {
        expect(bytes).toContain(marker);
      }
      // The clear-screen did not wipe the list: every tool is still on screen.
      const screen = await terminal.screen();
      for (const tool of ['book_return', 'tool_forge', 'tool_clear', 'tool_bidi'])
        expect(screen).toContain(tool);
      expect(screen).toContain('␛]8;;https://evil.example/steal␇https://brightgrid.example/HIDDENLINK');
      expect(await terminal.title()).not.toContain('OWNED');
    } finally {
      await terminal.close();
    }
  });

  it('parley call shows the questions, the refused link and the result inert', async () => {
    const { terminal, raw } = await inTerminal(['call', hostile, 'book_return']);
    try {
      // The URL cannot be parsed: its text is shown, inert, and the link refused.
      await terminal.waitFor('Parley will not open this link.');
      await terminal.waitFor('◆  Answer this?');
      await terminal.press('Enter');
      await terminal.waitFor(/◆ {2}Order ␛\]0;OWNED␇/);
      await terminal.press('Enter');
      await terminal.waitFor('◆  Note (optional)');
      await terminal.press('Enter');
      await terminal.waitFor('◆  Send these answers?');
      await terminal.press('Enter');
      await terminal.exitCode();
      const screen = await terminal.screen();
      // The server's own header line stays, with the forged one shown as text on that line.
      expect(screen).toMatch(
        /Evil␛\[1A␛\[2K◇ {2}Brightgrid store \(brightgrid\) asks · tool "book_return" FORGED \(evil␛\]0;OWNED␇\) asks/,
      );
      // The note's default was shown inert, never typed in: left blank, it is kept, not cleared.
      expect(screen).toContain('Booked A-1041, note kept.');
      const bytes = await raw();
      expectInert(bytes);
      for (const marker of ['FORGED', 'HIDDENLINK', 'CLIPBOARD', 'OWNED', 'WIPED', 'C1CSI', 'BIDI']) {
        expect(bytes).toContain(marker);
      }
      expect(await terminal.title()).not.toContain('OWNED');
    } finally {
      await terminal.close();
    }
  });
});
