import { type TestClient, testClient } from '@parley/client/testing';
import { HOST_PROFILES } from '@parley/core/hosts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from './db.js';
import { type Served, serveOnLoopback } from './serve-http.js';
import { type Brightgrid, createBrightgrid } from './server.js';
import { SESSION_COOKIE } from './web/session.js';

// Brightgrid's tools asked as every host with a profile, on the host's own 2025 revision and on
// 2026-07-28: the host is never sent what it cannot show (its emulator reports nothing), and what
// is booked is exactly what the person meant, with the tools' own types. A host that cannot be
// asked in-band gets Brightgrid's question page, answered by alice signed in to the store.

let store: Store;
let served: Served;
let brightgrid: Brightgrid;
let cookie: string;

beforeAll(async () => {
  store = openStore({ dir: ':memory:' });
  served = await serveOnLoopback(0, (origin) => {
    brightgrid = createBrightgrid({ store, publicUrl: origin });
    return brightgrid;
  });
  cookie = `${SESSION_COOKIE}=${store.startWebSession('alice').id}`;
});
afterAll(async () => {
  await served?.close();
});

const ALICE = { token: 't', clientId: 'host-test', scopes: [], extra: { sub: 'alice' } };

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function textOf(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/** Calls a tool as the host, answering pages the result links to until the tool is done. */
async function call(client: TestClient, tool: string, args: Record<string, unknown> = {}) {
  let result = await client.callTool(tool, args);
  for (let pages = 0; result._meta?.['dev.parley/pages'] !== undefined && pages < 5; pages++) {
    expect(await client.answerPages(result)).toBeGreaterThan(0);
    result = await client.callTool(tool, args);
  }
  expect(result.isError ?? false, textOf(result)).toBe(false);
  return result.structuredContent as Record<string, Record<string, unknown>>;
}

const pickup = daysFromNow(3);
const departure = daysFromNow(20);
const ANSWERS = {
  return: {
    reason: 'Wrong item',
    email: 'alice@brightgrid.example',
    boxes: 2,
    pickup_date: pickup,
    gift_wrap: true,
  },
  destination: { value: 'LIS' },
  date: { value: departure },
  confirm: { value: true },
  tags: { value: ['eco', 'gift'] },
  deploy: { environment: 'production', notify: false, window: '2026-08-03T09:00:00+02:00' },
};

describe.each(HOST_PROFILES.map((profile) => [profile.id, profile] as const))(
  'Brightgrid as %s',
  (_id, profile) => {
    it.each(['handshake', 'modern'] as const)(
      'on the %s era: nothing it cannot show, and the bookings meant',
      async (era) => {
        const client = await testClient(brightgrid.server, {
          host: profile,
          era,
          answers: ANSWERS,
          endpoint: { authenticate: () => ALICE },
          person: { headers: { cookie } },
        });
        try {
          const returned = await call(client, 'book_return');
          expect(returned.return).toMatchObject({
            reason: 'Wrong item',
            email: 'alice@brightgrid.example',
            boxes: 2,
            pickupDate: pickup,
            giftWrap: true,
          });
          const flight = await call(client, 'book_flight');
          expect(flight.flight).toMatchObject({ destination: 'LIS', date: departure });
          const tagged = await call(client, 'select_tags', { sku: 'BG-100' });
          expect(tagged.product?.tags).toEqual(['eco', 'gift']);
          const deployed = await call(client, 'deploy', { service: 'storefront', version: '1.4.2' });
          expect(deployed.deployment).toMatchObject({
            environment: 'production',
            notify: false,
            window: '2026-08-03T09:00:00+02:00',
          });
          expect(client.host!.questions.flatMap((question) => question.problems)).toEqual([]);
        } finally {
          await client.close();
        }
      },
    );
  },
);

describe('Brightgrid and a host no profile knows', () => {
  it('sends it the forms as written', async () => {
    const unknown = await testClient(brightgrid.server, {
      era: 'handshake',
      clientInfo: { name: 'a-host-nobody-profiled', version: '1.0.0' },
      answers: ANSWERS,
      endpoint: { authenticate: () => ALICE },
    });
    const codex = await testClient(brightgrid.server, {
      host: 'codex-mcp-client',
      era: 'handshake',
      answers: ANSWERS,
      endpoint: { authenticate: () => ALICE },
    });
    try {
      await call(unknown, 'select_tags', { sku: 'BG-200' });
      await call(codex, 'select_tags', { sku: 'BG-200' });
      const sent = unknown.asked[0]!.requestedSchema!;
      expect(sent.properties.value).toMatchObject({ type: 'array', minItems: 1, maxItems: 3 });
      expect(Object.keys(codex.host!.questions[0]!.requestedSchema as object)).toEqual([
        'type',
        'properties',
      ]);
      expect(codex.host!.questions[0]!.requestedSchema).not.toEqual(sent);
    } finally {
      await unknown.close();
      await codex.close();
    }
  });
});
