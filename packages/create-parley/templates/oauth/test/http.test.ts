import { connect, scripted } from '@parley/client';
import type { Listening } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bookings } from '../src/bookings.js';
import { BOOKING_SCOPE, serveHttp } from '../src/http.js';
import { createApp } from '../src/server.js';
import { startTestIssuer, type TestIssuer } from './issuer.js';

// The real endpoint on a free loopback port, protected by OAuth, with tokens from a stand-in issuer.
let issuer: TestIssuer;
let listening: Listening;
const bookings = new Bookings();

beforeAll(async () => {
  issuer = await startTestIssuer();
  listening = await serveHttp(createApp(bookings), {
    port: 0,
    issuer: issuer.issuer,
    jwksUri: issuer.jwksUri,
  });
});
afterAll(async () => {
  await listening?.close();
  await issuer?.close();
});

describe('the OAuth-protected endpoint', () => {
  it('refuses a request without a token, and says where to get one', async () => {
    const response = await fetch(listening.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBeDefined();
    const metadata = (await (await fetch(metadataUrl!)).json()) as { authorization_servers?: string[] };
    expect(metadata.authorization_servers).toEqual([issuer.issuer]);
  });

  it('refuses a token made out to another server', async () => {
    const token = await issuer.token({ audience: 'https://elsewhere.example/mcp', scope: BOOKING_SCOPE });
    const ui = scripted({});
    await expect(
      connect(listening.url, { ui, headers: { authorization: `Bearer ${token}` } }),
    ).rejects.toThrow(/requires authorization \(HTTP 401\)/);
  });

  describe.each(['modern', 'handshake'] as const)('on the %s era', (era) => {
    it('books a table for a caller whose token holds the scope', async () => {
      const token = await issuer.token({ audience: listening.url, scope: BOOKING_SCOPE });
      const ui = scripted({ party: { guests: 2, date: '2030-05-01' } });
      const client = await connect(listening.url, { ui, era, headers: { authorization: `Bearer ${token}` } });
      try {
        const before = bookings.list().length;
        const result = await client.callTool('book_table');
        expect(result.content).toEqual([
          { type: 'text', text: `Table T-${before + 1} booked for 2 on 2030-05-01.` },
        ]);
      } finally {
        await client.close();
      }
    });

    it('refuses book_table to a token without the scope', async () => {
      const token = await issuer.token({ audience: listening.url, scope: 'profile' });
      const client = await connect(listening.url, {
        ui: scripted({}),
        era,
        headers: { authorization: `Bearer ${token}` },
      });
      try {
        await expect(client.callTool('book_table')).rejects.toThrow(
          /Insufficient scope: required "tables:book"/,
        );
      } finally {
        await client.close();
      }
    });
  });
});
