import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { PROCESS_START_TIMEOUT_MS } from './test-waits.js';

const BRIGHTGRID_HTTP = fileURLToPath(new URL('../../examples/brightgrid/dist/http.js', import.meta.url));

/** Brightgrid with Brightgrid ID (its authorization server) beside it, as a real process. */
export interface BrightgridWithId {
  /** The MCP endpoint. */
  readonly url: string;
  /** Brightgrid ID's issuer. */
  readonly issuer: string;
  /** The demo agent's client credentials (it acts for alice). */
  readonly agent: { readonly clientId: string; readonly clientSecret: string };
  stop(): Promise<void>;
}

/**
 * Starts the built Brightgrid (`examples/brightgrid/dist/http.js --oauth`) with a fresh store;
 * `agentKey` (a public key file) registers one more service, `brightgrid-keyed-agent` (acting for
 * bob), that signs in with JWTs signed by its private half.
 */
export async function startBrightgridWithId(
  options: { readonly agentKey?: string } = {},
): Promise<BrightgridWithId> {
  const args = [BRIGHTGRID_HTTP, '--oauth', ...(options.agentKey ? ['--agent-key', options.agentKey] : [])];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, BRIGHTGRID_DATA: mkdtempSync(join(tmpdir(), 'brightgrid-id-')) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines: string[] = [];
  const found = await new Promise<Omit<BrightgridWithId, 'stop'>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Brightgrid did not start:\n${lines.join('\n')}`)),
      PROCESS_START_TIMEOUT_MS,
    );
    child.once('exit', () => reject(new Error(`Brightgrid exited:\n${lines.join('\n')}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const url = lines.map((l) => /^Brightgrid: (\S+)$/.exec(l)?.[1]).find(Boolean);
      const issuer = lines.map((l) => /^Brightgrid ID \(sign-in\): (\S+)$/.exec(l)?.[1]).find(Boolean);
      const agent = lines
        .map((l) => /^Agent sign-in .*PARLEY_CLIENT_SECRET=(\S+) .* --client-id (\S+) --issuer \S+$/.exec(l))
        .find(Boolean);
      if (url && issuer && agent) {
        clearTimeout(timer);
        resolve({ url, issuer, agent: { clientId: agent[2]!, clientSecret: agent[1]! } });
      }
    });
  });
  return {
    ...found,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Plays the person at Brightgrid ID in a real browser page: opens `authorizationUrl`, signs in
 * (unless the browser is signed in there already) and presses Allow on the consent page (when
 * asked), until the browser leaves Brightgrid ID for the app's redirect URI.
 */
export async function signInAtBrightgridId(
  page: Page,
  authorizationUrl: string,
  username: string,
  password: string,
): Promise<void> {
  const issuerOrigin = new URL(authorizationUrl).origin;
  const leftId = () => new URL(page.url()).origin !== issuerOrigin;
  await page.goto(authorizationUrl);
  for (let step = 0; step < 4 && !leftId(); step++) {
    const login = page.getByLabel('User name');
    const allow = page.getByRole('button', { name: 'Allow' });
    await login.or(allow).first().waitFor();
    await passBrightgridIdPage(page, username, password);
    await page.waitForLoadState();
  }
  if (!leftId()) throw new Error(`Brightgrid ID did not send the browser back (at ${page.url()})`);
}

/**
 * Answers the Brightgrid ID page the browser is on, as a person would: the sign-in form with these
 * credentials, or Allow on the consent page. Resolves once the browser has moved on.
 */
export async function passBrightgridIdPage(page: Page, username: string, password: string): Promise<void> {
  const login = page.getByLabel('User name');
  const before = page.url();
  if (await login.isVisible()) {
    await login.fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  } else {
    await page.getByRole('button', { name: 'Allow' }).click();
  }
  await page.waitForURL((url) => url.href !== before);
}
