import { connect, scripted } from '@parley/client';
import { type BrightgridWithId, startBrightgridWithId } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway, textOf } from './support.js';

// The gateway between a host and an OAuth-protected upstream (Brightgrid, with Brightgrid ID, a
// real OpenID Provider): it signs in upstream with its own credentials (the client credentials
// grant, nobody at a browser), may itself be a protected resource, and never passes the host's
// token on (the spec forbids token passthrough).
describe('auth on both sides of the gateway', () => {
  let brightgrid: BrightgridWithId;
  let running: RunningGateway;
  let protectedGateway: RunningGateway;
  let legacy: RunningGateway;
  const sentUpstream: string[] = [];
  const sentOnSessions: string[] = [];
  beforeAll(async () => {
    brightgrid = await startBrightgridWithId();
    // What the gateway sends upstream, read off the wire it uses.
    const recording: typeof fetch = async (input, init) => {
      const authorization = new Headers(init?.headers).get('authorization');
      if (authorization !== null) sentUpstream.push(authorization);
      return fetch(input, init);
    };
    const upstreams = {
      store: {
        url: brightgrid.url,
        oauth: {
          clientId: brightgrid.agent.clientId,
          clientSecret: brightgrid.agent.clientSecret,
          issuer: brightgrid.issuer,
        },
      },
    };
    // The same upstream spoken to in 2025-11-25: each call on a 2025 session of its own, whose
    // transport sends through the signed-in fetch.
    const recordingSessions: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('"tools/call"'))
        sentOnSessions.push(new Headers(init.headers).get('authorization') ?? '');
      return fetch(input, init);
    };
    [running, protectedGateway, legacy] = await Promise.all([
      startGateway({ upstreams }, { fetch: { store: recording } }),
      startGateway({ upstreams, auth: { issuer: brightgrid.issuer } }),
      startGateway(
        { upstreams: { store: { ...upstreams.store, era: '2025-11-25' } } },
        { fetch: { store: recordingSessions } },
      ),
    ]);
  });
  afterAll(async () => {
    await Promise.all([running?.stop(), protectedGateway?.stop(), legacy?.stop()]);
    await brightgrid?.stop();
  });

  it('signs in upstream with its own credentials (DPoP-bound, as Brightgrid asks) and lists what the store offers', () => {
    const [store] = running.gateway.status().upstreams;
    expect(store).toMatchObject({ name: 'store', state: 'ready' });
    expect(store!.tools).toBeGreaterThan(0);
    expect(sentUpstream.some((value) => /^DPoP /.test(value))).toBe(true);
  });

  it('never passes the host’s token on: the upstream sees only the gateway’s own', async () => {
    const hostToken = 'host-token-that-must-stay-here';
    const client = await connect(running.url, {
      ui: scripted({}),
      headers: { authorization: `Bearer ${hostToken}` },
    });
    try {
      // The agent acts for alice upstream: her orders.
      expect(textOf(await client.callTool('list_bookings'))).toMatch(/Order #1001/);
    } finally {
      await client.close();
    }
    expect(sentUpstream.length).toBeGreaterThan(0);
    expect(sentUpstream.some((value) => value.includes(hostToken))).toBe(false);
  });

  it('signs in on the 2025 session a call of a 2025-era upstream gets, its tools/call with the token', async () => {
    const client = await connect(legacy.url, { ui: scripted({}) });
    try {
      expect(textOf(await client.callTool('list_bookings'))).toMatch(/Order #1001/);
    } finally {
      await client.close();
    }
    expect(sentOnSessions.length).toBeGreaterThan(0);
    for (const authorization of sentOnSessions) expect(authorization).toMatch(/^DPoP /);
  });

  it('as a protected resource, refuses a host without a token and names its authorization server', async () => {
    const response = await fetch(protectedGateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(response.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(
      response.headers.get('www-authenticate') ?? '',
    )?.[1];
    expect(new URL(metadataUrl!).origin).toBe(new URL(protectedGateway.url).origin);
    const metadata = (await (await fetch(metadataUrl!)).json()) as {
      authorization_servers: string[];
      resource: string;
    };
    expect(metadata).toMatchObject({
      authorization_servers: [brightgrid.issuer],
      resource: protectedGateway.url,
    });
  });
});
