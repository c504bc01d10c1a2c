import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture } from './run-parley.js';
import { Terminal } from './tmux.js';

const parleyFixture = fileURLToPath(new URL('./fixtures/parley-server.mjs', import.meta.url));

// The terminal UI in a real pseudo-terminal (tmux), driven key by key, against real server
// processes with the same tools: one written with the raw official SDK and one with Parley's own
// server framework, each over stdio and over HTTP, on both eras.

const SERVERS = {
  sdk: {
    label: 'Fixture Server (fixture)',
    stdio: [fixture('stdio-server.mjs')],
    http: [fixture('http-server.mjs')],
  },
  parley: {
    label: 'Parley Fixture (parley-fixture)',
    stdio: [parleyFixture],
    http: [parleyFixture, '--http'],
  },
} as const;

interface Target {
  readonly server: keyof typeof SERVERS;
  readonly transport: 'stdio' | 'http';
  readonly era: 'modern' | 'handshake';
}

const TARGETS: readonly Target[] = (['sdk', 'parley'] as const).flatMap((server) =>
  (['stdio', 'http'] as const).flatMap((transport) =>
    (['modern', 'handshake'] as const).map((era) => ({ server, transport, era })),
  ),
);

let dir: string;
const httpUrls: Partial<Record<keyof typeof SERVERS, string>> = {};
const stops: (() => void)[] = [];
let browser: string;

async function startHttp(argv: readonly string[]): Promise<string> {
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  stops.push(() => child.kill('SIGTERM'));
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-pty-'));
  // The system browser, as `open` finds it through xdg-open: $BROWSER, here a script that notes the URL.
  browser = join(dir, 'browser.sh');
  await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> "${join(dir, 'opened.txt')}"\n`);
  await chmod(browser, 0o755);
  [httpUrls.sdk, httpUrls.parley] = await Promise.all([
    startHttp(SERVERS.sdk.http),
    startHttp(SERVERS.parley.http),
  ]);
});
afterAll(() => {
  for (const stop of stops) stop();
});

let runs = 0;
async function parley(target: Target, tool: string, ...args: string[]) {
  const server =
    target.transport === 'http'
      ? httpUrls[target.server]!
      : [process.execPath, ...SERVERS[target.server].stdio].join(' ');
  const stdoutFile = join(dir, `out-${++runs}.txt`);
  const terminal = await Terminal.start(
    [
      process.execPath,
      BIN,
      'call',
      server,
      tool,
      '--era',
      target.era === 'modern' ? 'auto' : 'handshake',
      ...args,
    ],
    { env: { BROWSER: browser }, stdoutFile },
  );
  return { terminal, output: () => readFile(stdoutFile, 'utf8') };
}

/** Answers a text prompt once it is on screen. */
async function answer(terminal: Terminal, label: string, text: string): Promise<void> {
  await terminal.waitFor(`◆  ${label}`);
  if (text !== '') await terminal.type(text);
  await terminal.press('Enter');
}

async function choose(terminal: Terminal, label: string, ...keys: string[]): Promise<void> {
  await terminal.waitFor(`◆  ${label}`);
  await terminal.press(...keys, 'Enter');
}

/** Answers the profile form's first five fields (its plain text ones). */
async function answerTextFields(terminal: Terminal): Promise<void> {
  await answer(terminal, 'Name', 'Ada');
  await answer(terminal, 'Email', 'ada@example.com');
  await answer(terminal, 'Website', 'https://ada.dev');
  await answer(terminal, 'Birthday', '1815-12-10');
  await answer(terminal, 'Meeting', '2026-07-28T10:00:00Z');
}

describe.each(TARGETS)('the terminal UI with the $server server, $transport, $era era', (target) => {
  it('fills a form with every field kind, asks a bad value again, and edits from the review screen', async () => {
    const { terminal, output } = await parley(target, 'profile');
    try {
      const header = await terminal.waitFor('◆  Answer this?');
      expect(header).toContain(`${SERVERS[target.server].label} asks · tool "profile" · round 1`);
      expect(header).toContain('Tell us about yourself');
      await terminal.press('Enter');
      await answerTextFields(terminal);
      await answer(terminal, 'Age (whole number, 0–150)', 'abc');
      const refused = await terminal.waitFor('▲  Age');
      expect(refused).toContain('Enter a whole number');
      await terminal.press('BSpace', 'BSpace', 'BSpace');
      await terminal.type('36');
      await terminal.press('Enter');
      await answer(terminal, 'Height (0.5–3)', '1.65');
      const subscribe = await terminal.waitFor('◆  Subscribe (optional)');
      expect(subscribe).toMatch(/● Yes/); // pre-filled from the default
      await terminal.press('Enter');
      await choose(terminal, 'Size'); // default m
      await choose(terminal, 'Plan', 'Down'); // Pro plan
      await choose(terminal, 'Color', 'Down'); // Green (legacy enumNames)
      await choose(terminal, 'Toppings (1–2 choices)', 'Space', 'Down', 'Space');
      await choose(terminal, 'Extras (optional)', 'Down', 'Space');
      await answer(terminal, 'Nickname (optional)', '');
      const review = await terminal.waitFor('◆  Send these answers?');
      expect(review).toContain('Age: 36');
      expect(review).toContain('Color: Green');
      expect(review).toContain('Extras: Parking');
      await terminal.press('Down', 'Enter');
      await choose(terminal, 'Which field?', 'Down', 'Down', 'Down', 'Down', 'Down');
      await terminal.waitFor('◆  Age');
      await terminal.press('BSpace', 'BSpace');
      await terminal.type('40');
      await terminal.press('Enter');
      await terminal.waitFor(/◆ {2}Send these answers\?[\s\S]*$/);
      expect((await terminal.screen()).split('Your answers:').at(-1)).toContain('Age: 40');
      await terminal.press('Enter');
      expect(await terminal.exitCode()).toBe(0);
      expect(JSON.parse(await output())).toEqual({
        name: 'Ada',
        email: 'ada@example.com',
        website: 'https://ada.dev',
        birthday: '1815-12-10',
        meeting: '2026-07-28T10:00:00Z',
        age: 40,
        height: 1.65,
        subscribe: true,
        size: 'm',
        plan: 'pro',
        color: 'g',
        toppings: ['cheese', 'olives'],
        extras: ['parking'],
      });
    } finally {
      await terminal.close();
    }
  });

  it('declines, and exits 3 when the tool fails because of it', async () => {
    const { terminal, output } = await parley(target, 'guarded');
    try {
      await choose(terminal, 'Answer this?', 'Down');
      expect(await terminal.exitCode()).toBe(3);
      expect(await output()).toBe('The person chose decline; nothing was done\n');
      expect(await terminal.screen()).toContain('parley: guarded ended after you declined or cancelled');
    } finally {
      await terminal.close();
    }
  });

  it('cancels with Escape in the middle of a form', async () => {
    const { terminal, output } = await parley(target, 'profile');
    try {
      await choose(terminal, 'Answer this?');
      await answer(terminal, 'Name', 'Ada');
      await terminal.waitFor('◆  Email');
      await terminal.press('Escape');
      expect(await terminal.exitCode()).toBe(0);
      expect(await output()).toBe('profile cancel\n');
    } finally {
      await terminal.close();
    }
  });

  it('cancels with Ctrl-C', async () => {
    const { terminal, output } = await parley(target, 'guarded');
    try {
      await terminal.waitFor('◆  Answer this?');
      await terminal.press('C-c');
      expect(await terminal.exitCode()).toBe(3);
      expect(await output()).toBe('The person chose cancel; nothing was done\n');
    } finally {
      await terminal.close();
    }
  });

  it('shows a punycode URL in full with its warnings, and opens it only after consent', async () => {
    const url = `https://xn--pple-43d.com/login?run=${target.server}-${target.transport}-${target.era}`;
    const { terminal, output } = await parley(target, 'sign_in', '--arg', `url=${url}`);
    try {
      const screen = await terminal.waitFor('◆  Open this page in your browser?');
      expect(screen).toContain(`Address: ${url}`);
      expect(screen).toContain('Site:    аpple.com');
      expect(screen).toContain('(xn--pple-43d.com)');
      expect(screen).toMatch(/in 'аpple', character 1 is a Cyrillic letter that looks like 'a'/);
      expect(screen).toMatch(/● Decline/); // with warnings, the safe choice comes first
      // The registrable domain is emphasized (bold and underlined) inside the host.
      expect(await terminal.screen({ escapes: true })).toContain('Site:    \u001b[1;4mаpple.com');
      const opened = join(dir, 'opened.txt');
      expect(await readFile(opened, 'utf8').catch(() => '')).not.toContain(url);
      await terminal.press('Up', 'Enter');
      await terminal.waitFor('Opened аpple.com in your browser.');
      if (target.era === 'modern') await choose(terminal, 'Finish in the browser, then:');
      expect(await terminal.exitCode()).toBe(0);
      expect(await output()).toBe('sign-in accept\n');
      // The browser is started detached and may write its note a moment after parley ends.
      await expect
        .poll(async () => (await readFile(opened, 'utf8').catch(() => '')).split('\n'))
        .toContain(url);
    } finally {
      await terminal.close();
    }
  });

  it('refuses outright a URL that is not allowed', async () => {
    const { terminal, output } = await parley(
      target,
      'sign_in',
      '--arg',
      'url=http://accounts.example.com/login',
    );
    try {
      const screen = await terminal.waitFor('Parley will not open this link.');
      expect(screen).not.toContain('Open this page in your browser?');
      expect(await terminal.exitCode()).toBe(3);
      expect(await output()).toBe('sign-in decline\n');
    } finally {
      await terminal.close();
    }
  });
});

describe('Ctrl-C while no question is on screen', () => {
  it('stops the call and exits 3', async () => {
    const { terminal } = await parley(
      { server: 'sdk', transport: 'stdio', era: 'modern' },
      'slow',
      '--verbose',
    );
    try {
      await terminal.waitFor('→ tools/call "slow"');
      await terminal.press('C-c');
      expect(await terminal.exitCode()).toBe(3);
      expect(await terminal.screen()).toContain('parley: Stopped with Ctrl-C');
    } finally {
      await terminal.close();
    }
  });
});

describe.each(['modern', 'handshake'] as const)('a default the person clears, %s era', (era) => {
  it('is sent empty, and the Parley server does not put it back', async () => {
    const { terminal, output } = await parley({ server: 'parley', transport: 'stdio', era }, 'profile');
    try {
      await choose(terminal, 'Answer this?');
      await answerTextFields(terminal);
      await answer(terminal, 'Age (whole number, 0–150)', '36');
      await answer(terminal, 'Height (0.5–3)', '1.65');
      await choose(terminal, 'Subscribe (optional)', 'Down', 'Down'); // from the default Yes to No answer
      await choose(terminal, 'Size'); // a required default: kept
      await choose(terminal, 'Plan');
      await choose(terminal, 'Color');
      await choose(terminal, 'Toppings (1–2 choices)', 'Space');
      await choose(terminal, 'Extras (optional)');
      await answer(terminal, 'Nickname (optional)', '');
      await choose(terminal, 'Send these answers?');
      expect(await terminal.exitCode()).toBe(0);
      const sent = JSON.parse(await output());
      expect(Object.hasOwn(sent, 'subscribe')).toBe(false);
      expect(sent).toMatchObject({ name: 'Ada', size: 'm', plan: 'free', toppings: ['cheese'] });
    } finally {
      await terminal.close();
    }
  });
});
