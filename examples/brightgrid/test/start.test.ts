import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CHROMIUM_ARGS,
  onFreePort,
  PortTaken,
  SETTLE_TIMEOUT_MS,
  signInAtBrightgridId,
} from '@parley/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, freshDataDir, Running } from './processes.js';

// `npm start`: Brightgrid on loopback HTTP and the lab connected to it, as a person runs it.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function startDemo(args: string[]): Running {
  // No DISPLAY: even without --no-open, a headless machine must not try to open a browser.
  return new Running([join(DIST, 'start.js'), ...args], {
    BRIGHTGRID_DATA: freshDataDir(),
    DISPLAY: '',
    WAYLAND_DISPLAY: '',
  });
}

describe('the demo (dist/start.js)', () => {
  let demo: Running;
  let browser: Browser;
  let labPort: number;
  let labUrl: string;
  let brightgridUrl: string;

  beforeAll(async () => {
    // A pinned port can be taken between the pick and the demo's bind: then another port.
    const starting = onFreePort(async (port) => {
      const started = startDemo(['--no-open', '--port', String(port)]);
      try {
        return { started, port, lab: (await started.line(/^Lab: (\S+)$/))[1]! };
      } catch (error) {
        if (started.stderr.some((line) => line.includes(`Port ${port} is in use`))) throw new PortTaken(port);
        throw error;
      }
    });
    const [launched, { started, port, lab }] = await Promise.all([
      chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
      starting,
    ]);
    [browser, demo, labPort, labUrl] = [launched, started, port, lab];
    brightgridUrl = (await demo.line(/^Brightgrid: (\S+)$/))[1]!;
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  it('prints the lab URL on its own line, on the pinned port, with the demo sign-ins', async () => {
    expect(new URL(labUrl).port).toBe(String(labPort));
    expect(new URL(labUrl).hostname).toBe('127.0.0.1');
    expect(new URL(brightgridUrl).hostname).toBe('127.0.0.1');
    expect(demo.lines).toContain(`Lab: ${labUrl}`);
    expect(demo.lines.join('\n')).toMatch(/alice \/ wonderland, or bob \/ bricklayer/);
    const page = await fetch(labUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Parley lab</title>');
  });

  it('shows Brightgrid in the lab, connected, with its tools', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(labUrl);
    await page.locator('.server-status', { hasText: 'sign-in needed' }).waitFor();
    const [signIn] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: /^Sign in at / }).click(),
    ]);
    await signIn.waitForLoadState();
    await signInAtBrightgridId(signIn, signIn.url(), 'alice', 'wonderland');
    await signIn.close();
    await page.locator('.server-pick', { hasText: 'Brightgrid store 0.1.0' }).waitFor();
    await page.locator('.server-status', { hasText: '2026-07-28' }).waitFor();
    for (const tool of ['book_return', 'connect_store_account', 'book_flight', 'deploy', 'select_tags']) {
      await page.getByRole('button', { name: `Call ${tool}` }).waitFor();
    }
    await context.close();
  });

  it('stops both servers and exits 0 on Ctrl-C', async () => {
    const exit = await demo.stop('SIGINT');
    expect(exit).toEqual({ code: 0, signal: null });
    await expect(fetch(labUrl)).rejects.toThrow();
    await expect(fetch(brightgridUrl, { method: 'POST' })).rejects.toThrow();
  });
});

describe('the demo refuses bad options', () => {
  it('names a lab port that is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const demo = startDemo(['--no-open', '--port', String(port)]);
      expect((await demo.exited).code).toBe(1);
      const said = demo.stderr.join('\n');
      expect(said).toMatch(new RegExp(`^The lab did not start: Port ${port} is in use`));
      expect(said).toMatch(/\(npm start -- --port <n> sets the lab's port\.\)$/);
    } finally {
      taken.close();
    }
  });

  it('names a port that is not a number', async () => {
    const demo = startDemo(['--port', 'lab']);
    expect((await demo.exited).code).toBe(1);
    expect(demo.stderr.join('\n')).toBe('--port takes a port number from 0 to 65535, not "lab".');
  });
});

describe('npm start (the root script)', () => {
  it('starts the demo and serves the lab; Ctrl-C stops every process cleanly', async () => {
    // --ignore-scripts skips `prestart` (the build): the tests run after `npm run build` already.
    // Detached: npm, its shell and the demo get a process group of their own, like a terminal's job.
    const npm = spawn('npm', ['start', '--ignore-scripts', '--silent', '--', '--no-open'], {
      cwd: ROOT,
      env: { ...process.env, BRIGHTGRID_DATA: freshDataDir(), DISPLAY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const group = npm.pid!;
    let out = '';
    let err = '';
    npm.stdout.on('data', (chunk) => {
      out += chunk;
    });
    npm.stderr.on('data', (chunk) => {
      err += chunk;
    });
    const alive = () => {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      const deadline = Date.now() + 60_000;
      while (!/^Lab: \S+$/m.test(out) && npm.exitCode === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const labUrl = /^Lab: (\S+)$/m.exec(out)?.[1];
      const brightgridUrl = /^Brightgrid: (\S+)$/m.exec(out)?.[1];
      expect(labUrl, `npm start printed no Lab line.\nstdout:\n${out}\nstderr:\n${err}`).toBeDefined();
      expect((await fetch(labUrl!)).status).toBe(200);

      // Ctrl-C in a terminal sends SIGINT to the whole foreground job.
      process.kill(-group, 'SIGINT');
      await expect.poll(alive, { timeout: SETTLE_TIMEOUT_MS, interval: 100 }).toBe(false);
      expect(err).toBe('');
      await expect(fetch(labUrl!)).rejects.toThrow();
      await expect(fetch(brightgridUrl!, { method: 'POST' })).rejects.toThrow();
    } finally {
      if (alive()) process.kill(-group, 'SIGKILL');
    }
  });
});
