// The lab is private to the person at this computer: a token in its URL, Host and Origin checked,
// a strict Content-Security-Policy and no remote assets. Checked against the built lab process.
import { request as httpRequest } from 'node:http';
import { onFreePort, PortTaken } from '@parley/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openLab } from './helpers/browser.js';
import { PARLEY_BIN, type Running, startLabProcess, startNode } from './helpers/processes.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let lab: Running & { url: string };
let origin: string;
let token: string;

function send(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += String(chunk);
          if (res.headers['content-type']?.startsWith('text/event-stream') && body.includes('\n\n'))
            res.destroy();
        });
        res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return send(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${token}`,
      Origin: origin,
      ...headers,
    },
  });
}

beforeAll(async () => {
  lab = await startLabProcess();
  const url = new URL(lab.url);
  origin = url.origin;
  token = url.searchParams.get('token')!;
});

afterAll(async () => {
  await lab?.stop();
});

describe('the lab URL', () => {
  it('is on loopback with a random 256-bit token', () => {
    expect(lab.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
  });

  it('serves the page only with the token', async () => {
    expect((await send(`/?token=${token}`)).status).toBe(200);
    const without = await send('/');
    expect(without.status).toBe(401);
    expect(without.body).toContain('Open it with the full URL it printed');
    // One character changed (never to the one it already is: a token ending in "A" once passed).
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await send(`/?token=${altered}`)).status).toBe(401);
    expect((await send(`/index.html?token=x${token}`)).status).toBe(401);
  });

  it('opens the event stream only with the token, starting with a snapshot', async () => {
    expect((await send('/api/events')).status).toBe(401);
    const stream = await send(`/api/events?token=${token}`);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const first = /data: (.*)\n\n/.exec(stream.body)![1]!;
    expect(JSON.parse(first)).toEqual({ type: 'snapshot', servers: [], calls: [], questions: [] });
  });
});

describe('the guard', () => {
  it('refuses a Host that is not the lab (DNS rebinding)', async () => {
    const reply = await send(`/?token=${token}`, {
      headers: { Host: `rebind.example:${new URL(origin).port}` },
    });
    expect(reply.status).toBe(421);
    expect(reply.body).toContain(origin);
  });

  it('refuses API calls without the bearer token', async () => {
    const reply = await post('/api/servers', { target: 'node x.js' }, { Authorization: '' });
    expect(reply.status).toBe(401);
  });

  it('refuses API calls from another origin, or with no Origin at all', async () => {
    expect(
      (await post('/api/servers', { target: 'node x.js' }, { Origin: 'http://127.0.0.1:1' })).status,
    ).toBe(403);
    expect((await post('/api/servers', { target: 'node x.js' }, { Origin: 'null' })).status).toBe(403);
    const noOrigin = await send('/api/servers', {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    });
    expect(noOrigin.status).toBe(403);
  });

  it('accepts JSON only, and says what is wrong with a body', async () => {
    const form = await post('/api/servers', {}, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    const empty = await post('/api/servers', { target: '' });
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body).error).toContain('Give a target');
    const noServer = await post('/api/calls', { serverId: 's99', kind: 'tool', name: 'x' });
    expect(noServer.status).toBe(409);
    expect(JSON.parse(noServer.body).error).toBe('Server s99 is not connected; connect it first.');
    expect((await post('/api/questions/q1/answer', { action: 'accept' })).status).toBe(404);
    expect((await post('/api/nowhere', {})).status).toBe(404);
  });
});

describe('the page', () => {
  it('is sent with a strict CSP and hardening headers', async () => {
    const reply = await send(`/?token=${token}`);
    expect(reply.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' data:; " +
        "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'; " +
        "require-trusted-types-for 'script'; trusted-types",
    );
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['x-frame-options']).toBe('DENY');
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('refers only to its own files: no remote assets, no inline script or style', async () => {
    const html = (await send(`/?token=${token}`)).body;
    const references = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
    expect(references.sort()).toEqual(['/app.js', '/lab.css', '/renderer.css']);
    expect(html).not.toMatch(/<script>|<style|style="/);
    for (const file of ['/lab.css', '/renderer.css']) {
      const css = await send(file);
      expect(css.status).toBe(200);
      expect(css.body).not.toMatch(/@import|url\(|@font-face/);
    }
    expect((await send('/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it('makes no request beyond the lab while a person uses it, and runs with no CSP violation', async () => {
    browser = await launchChromium();
    const page = await openLab(browser, lab.url);
    const requests: string[] = [];
    const violations: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (/Content Security Policy|Trusted Type/i.test(message.text())) violations.push(message.text());
    });
    await page.reload();
    await page.getByRole('heading', { name: 'No server yet' }).waitFor();
    await page.getByRole('textbox', { name: 'Server' }).fill('this-command-does-not-exist --flag');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('.server-status', { hasText: 'failed' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/this-command-does-not-exist/);
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    expect(violations).toEqual([]);
  });
});

describe('parley lab', () => {
  it('refuses to listen beyond this computer (exit 2)', async () => {
    const refused = startNode([PARLEY_BIN, 'lab', '--host', '0.0.0.0'], /Lab:/);
    await expect(refused).rejects.toThrow(
      /exited with 2:\nparley: The lab serves only this computer; "0\.0\.0\.0" is not a loopback address\. Use 127\.0\.0\.1, ::1 or localhost\./,
    );
  });

  it('refuses a bad era or port with the fix (exit 2)', async () => {
    await expect(startNode([PARLEY_BIN, 'lab', '--era', '2025'], /Lab:/)).rejects.toThrow(
      /exited with 2:\nparley: --era must be auto, modern or handshake; got "2025"/,
    );
    await expect(startNode([PARLEY_BIN, 'lab', '--port', 'http'], /Lab:/)).rejects.toThrow(
      /exited with 2:\nparley: --port must be a port number from 0 to 65535; got "http"/,
    );
  });

  it('says when its port is taken (exit 4)', async () => {
    const port = new URL(lab.url).port;
    await expect(startNode([PARLEY_BIN, 'lab', '--port', port], /Lab:/)).rejects.toThrow(
      new RegExp(
        `exited with 4:\\nparley: Port ${port} is in use on 127\\.0\\.0\\.1; choose another port, or 0 for any free one\\.`,
      ),
    );
  });

  it('listens on the port it is given, and exits 0 when stopped', async () => {
    // A port can be taken between the pick and the lab's bind: then another port.
    const { given, port } = await onFreePort(async (free) => {
      const port = String(free);
      const given = await startLabProcess(['--port', port]).catch((error: Error) => {
        throw error.message.includes(`Port ${port} is in use`) ? new PortTaken(free) : error;
      });
      return { given, port };
    });
    expect(new URL(given.url).port).toBe(port);
    await given.stop();
    expect(given.child.exitCode).toBe(0);
  });
});
