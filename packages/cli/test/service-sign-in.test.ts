import { generateKeyPairSync } from 'node:crypto';
import { chmod, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrightgridWithId, startBrightgridWithId, startRogueSignIn } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParley } from './run-parley.js';

// `parley` signs in as a service, headless: no terminal, no browser (BROWSER is a script that would
// note any address it was asked to open). Brightgrid ID (oidc-provider) knows the demo agent by its
// secret and, started with --agent-key, a second agent by its public key; Brightgrid asks for
// DPoP, so the tokens are bound to a key parley makes and keeps in service-tokens.json (0600).

let brightgrid: BrightgridWithId;
let dir: string;
let opened: string;
let browserScript: string;
let keyFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-service-'));
  opened = join(dir, 'opened.txt');
  browserScript = join(dir, 'browser.sh');
  await writeFile(browserScript, `#!/bin/sh\nprintf '%s\\n' "$1" >> "${opened}"\n`);
  await chmod(browserScript, 0o755);
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicFile = join(dir, 'agent.pub.pem');
  await writeFile(publicFile, publicKey.export({ format: 'pem', type: 'spki' }));
  keyFile = join(dir, 'agent.pem');
  await writeFile(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  brightgrid = await startBrightgridWithId({ agentKey: publicFile });
});
afterAll(async () => {
  await brightgrid?.stop();
});

const envFor = (config: string, more: Record<string, string> = {}) => ({
  XDG_CONFIG_HOME: config,
  BROWSER: browserScript,
  ...more,
});

describe('parley signs in as a service, with no browser', () => {
  it('with the client secret from the environment: lists the tools, keeps a DPoP-bound token apart', async () => {
    const config = await mkdtemp(join(dir, 'config-'));
    const env = envFor(config, {
      PARLEY_CLIENT_ID: brightgrid.agent.clientId,
      PARLEY_CLIENT_SECRET: brightgrid.agent.clientSecret,
      PARLEY_ISSUER: brightgrid.issuer,
    });
    const run = await runParley(['tools', brightgrid.url], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('list_bookings');
    await expect(readFile(opened, 'utf8')).rejects.toThrow(/ENOENT/);

    const file = join(config, 'parley', 'service-tokens.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(brightgrid.agent.clientSecret);
    const record = JSON.parse(text).servers[brightgrid.url];
    expect(record).toMatchObject({
      grant: 'client_credentials',
      client: { clientId: brightgrid.agent.clientId, tokenEndpointAuthMethod: 'client_secret_basic' },
      tokens: { tokenType: 'dpop' },
      dpopKey: { alg: 'ES256', jwk: { d: expect.any(String) } },
    });
    // A person's sign-ins are another file, untouched.
    await expect(stat(join(config, 'parley', 'tokens.json'))).rejects.toThrow(/ENOENT/);

    // The next command reuses the token: the call acts for alice, the agent's user.
    const call = await runParley(['call', brightgrid.url, 'list_bookings'], env);
    expect(call.code).toBe(0);
    // Alice's orders (the store lists a user's orders with their bookings).
    expect(call.stdout).toBe(
      'Order #1002: Solar garden light, €24, open\nOrder #1001: Desk lamp, €39, open\n',
    );
    expect(JSON.parse(await readFile(file, 'utf8')).servers[brightgrid.url].tokens.accessToken).toBe(
      record.tokens.accessToken,
    );

    const out = await runParley(['logout', brightgrid.url], { XDG_CONFIG_HOME: config });
    expect(out.stderr).toBe(`parley: signed out of ${brightgrid.url}\n`);
    expect(JSON.parse(await readFile(file, 'utf8')).servers[brightgrid.url]).toBeUndefined();
  });

  it('with a private key file (--client-key): calls a tool as the keyed agent’s user', async () => {
    const config = await mkdtemp(join(dir, 'config-'));
    const run = await runParley(
      [
        'call',
        brightgrid.url,
        'list_bookings',
        '--client-id',
        'brightgrid-keyed-agent',
        '--client-key',
        keyFile,
        '--issuer',
        brightgrid.issuer,
      ],
      envFor(config),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Order #2001: Smart plug, €19, open\n'); // Bob's order
    const text = await readFile(join(config, 'parley', 'service-tokens.json'), 'utf8');
    expect(JSON.parse(text).servers[brightgrid.url].client.tokenEndpointAuthMethod).toBe('private_key_jwt');
    expect(text).not.toContain((await readFile(keyFile, 'utf8')).split('\n')[1]);
  });

  it('refuses a key file other users can read, before anything is sent', async () => {
    const config = await mkdtemp(join(dir, 'config-'));
    const open = join(dir, 'open.pem');
    await writeFile(open, await readFile(keyFile));
    await chmod(open, 0o644);
    const run = await runParley(
      ['tools', brightgrid.url, '--client-id', 'brightgrid-keyed-agent', '--client-key', open],
      envFor(config),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `parley: --client-key: ${open} can be read by other users; make it yours alone (chmod 600 ${open})\n`,
    );
  });

  it('says the authorization server refused a wrong secret, without printing it, and stores nothing', async () => {
    const config = await mkdtemp(join(dir, 'config-'));
    const run = await runParley(
      ['tools', brightgrid.url],
      envFor(config, {
        PARLEY_CLIENT_ID: brightgrid.agent.clientId,
        PARLEY_CLIENT_SECRET: 'wrong-secret-value',
        PARLEY_ISSUER: brightgrid.issuer,
      }),
    );
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('refused the client credentials grant: invalid_client');
    expect(run.stderr).not.toContain('wrong-secret-value');
    expect(run.stdout).toBe('');
    await expect(stat(join(config, 'parley', 'service-tokens.json'))).rejects.toThrow(/ENOENT/);
  });

  // Issue 41, finding 7: without --issuer, the secret (Basic) and the workload JWT went to whatever
  // authorization server the MCP server named.
  it('sends a secret or a workload token to no authorization server unless --issuer pins one', async () => {
    const rogue = await startRogueSignIn();
    try {
      const config = await mkdtemp(join(dir, 'config-'));
      const tokenFile = join(dir, 'workload.jwt');
      await writeFile(tokenFile, 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2ln', { mode: 0o600 });
      const secret = await runParley(
        ['tools', rogue.mcpUrl],
        envFor(config, { PARLEY_CLIENT_ID: 'brightgrid-agent', PARLEY_CLIENT_SECRET: 'the-agent-secret' }),
      );
      expect(secret.code).toBe(2);
      expect(secret.stderr).toBe(
        "parley: --client-id sends the client's secret to the authorization server the MCP server names; pin the one " +
          'it was issued by with --issuer <url> (or PARLEY_ISSUER), so that a server naming another never receives it\n',
      );
      const workload = await runParley(
        ['tools', rogue.mcpUrl, '--workload-token', tokenFile],
        envFor(config),
      );
      expect(workload.code).toBe(2);
      expect(workload.stderr).toContain(
        "--workload-token sends the workload's JWT to the authorization server",
      );
      // Pinned to the real one, the rogue server's naming of its own gets nothing either.
      const pinned = await runParley(
        ['tools', rogue.mcpUrl, '--issuer', brightgrid.issuer],
        envFor(config, { PARLEY_CLIENT_ID: 'brightgrid-agent', PARLEY_CLIENT_SECRET: 'the-agent-secret' }),
      );
      expect(pinned.code).toBe(4);
      expect(pinned.stderr).toContain('nothing was sent');
      expect(rogue.tokenRequests).toEqual([]);
    } finally {
      await rogue.stop();
    }
  });

  it('pins the first authorization server a private key’s assertion goes to, with a warning', async () => {
    const config = await mkdtemp(join(dir, 'config-'));
    const run = await runParley(
      ['tools', brightgrid.url, '--client-id', 'brightgrid-keyed-agent', '--client-key', keyFile],
      envFor(config),
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `parley: warning: ${brightgrid.url} sends sign-ins to ${brightgrid.issuer}: the credentials go there and, from now ` +
        `on, only there. Pin the authorization server they were issued by (issuer: '${brightgrid.issuer}', or parley ` +
        `--issuer ${brightgrid.issuer}) so that a server naming another one never receives them.\n`,
    );
  });
});
