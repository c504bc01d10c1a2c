import { connect, type ParleyClient, scripted } from '@parley/client';
import { questionPagePerson } from '@parley/client/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway, startUpstream, textOf, type Upstream } from './support.js';

// Parley's ladder and guardrails applied to questions Parley did not write: a host that cannot show
// a question gets the gateway's page; a form asking for a secret is never relayed in-band; links are
// inspected; what cannot be asked is answered as a client would.
const UPSTREAM_ERAS = ['2026-07-28', '2025-11-25'] as const;
const person = questionPagePerson();

/** The page links a parked call's result carries (`_meta['dev.parley/pages']`). */
function pageLinks(result: {
  _meta?: Record<string, unknown>;
}): { key: string; url: string; message: string }[] {
  return (result._meta?.['dev.parley/pages'] ?? []) as { key: string; url: string; message: string }[];
}

describe.each(UPSTREAM_ERAS)('an upstream spoken to in %s', (upstreamEra) => {
  let desk: Upstream;
  let warehouse: Upstream;
  let running: RunningGateway;
  let refusing: RunningGateway;
  beforeAll(async () => {
    [desk, warehouse] = await Promise.all([
      startUpstream('parley-upstream.mjs', 'http'),
      startUpstream('raw-upstream.mjs'),
    ]);
    const upstreams = {
      desk: { url: desk.url, era: upstreamEra },
      warehouse: { url: warehouse.url, era: upstreamEra, title: 'Warehouse' },
    };
    [running, refusing] = await Promise.all([
      startGateway({ upstreams }),
      startGateway({ upstreams, urls: 'refuse' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([running?.stop(), refusing?.stop()]);
    await Promise.all([desk?.stop(), warehouse?.stop()]);
  });

  describe.each(['modern', 'handshake'] as const)('for a %s host', (era) => {
    it('asks a host that declared no elicitation on its page, and the same call goes on from there', async () => {
      const client = await connect(running.url, {
        ui: scripted({}, { modes: { form: false, url: false } }),
        era,
      });
      try {
        const first = await client.callTool('desk_book');
        const [boxes] = pageLinks(first);
        expect(boxes).toMatchObject({ key: 'boxes', message: 'The desk asks: How many boxes?' });
        expect(textOf(first)).toContain(boxes!.url);
        expect(await person.answer(boxes!.url, { action: 'accept', content: { boxes: 3 } })).toBe(true);
        const second = await client.callTool('desk_book');
        const [day] = pageLinks(second);
        expect(day).toMatchObject({ key: 'day' });
        await person.answer(day!.url, { action: 'accept', content: { value: '2027-01-05' } });
        expect(textOf(await client.callTool('desk_book'))).toBe(
          'Booked P-3-2027-01-05: 3 box(es) on 2027-01-05.',
        );
        expect(
          running.audit.filter((event) => event.name === 'desk_book' && event.fallback === 'page').length,
        ).toBeGreaterThanOrEqual(2);
      } finally {
        await client.close();
      }
    });

    it('never relays a form that asks for a password: the person answers it on the page, the upstream gets it', async () => {
      // Keyed by nothing: a 2025 upstream's questions have the gateway's own keys.
      const script = scripted(
        async (request) => {
          // The host was sent the gateway's page by URL mode; the person answers it in their browser.
          if (!('url' in request)) throw new Error('a form reached the host');
          await person.answer(request.url, {
            action: 'accept',
            content: { username: 'ada', password: 'hunter22' },
          });
          return { action: 'accept' };
        },
        { modes: { form: true, url: true } },
      );
      const client = await connect(running.url, { ui: script, era });
      try {
        expect(textOf(await client.callTool('warehouse_sign_in'))).toBe(
          'signed in ada with a 8-character password',
        );
        expect(script.asked.map((record) => record.mode)).toEqual(['url']);
        expect(JSON.stringify(script.asked)).not.toContain('hunter22');
        expect(JSON.stringify(running.audit)).not.toContain('hunter22');
        expect(running.audit.find((event) => event.name === 'warehouse_sign_in')).toMatchObject({
          fallback: 'page',
        });
      } finally {
        await client.close();
      }
    });

    it('passes a link on with what inspectUrl warns about, and declines one that carries a credential', async () => {
      const script = scripted(() => ({ action: 'accept' }), { modes: { form: true, url: true } });
      const client = await connect(running.url, { ui: script, era });
      try {
        const lookalike = 'https://login.example.com.evil.io/start';
        expect(textOf(await client.callTool('warehouse_open_link', { url: lookalike }))).toBe('link accept');
        const shown = script.asked.at(-1)!;
        expect(shown).toMatchObject({ mode: 'url', url: lookalike });
        expect(shown.message).toMatch(/^Warehouse asks: Connect your account\n\nCareful: /);
        const before = script.asked.length;
        const withToken = 'https://accounts.example.com/connect?token=abc123';
        expect(textOf(await client.callTool('warehouse_open_link', { url: withToken }))).toBe('link decline');
        expect(script.asked.length).toBe(before);
        expect(running.audit.at(-1)).toMatchObject({ outcome: 'refused', fallback: 'refused', mode: 'url' });
      } finally {
        await client.close();
      }
    });

    it('declines every link inspectUrl warns about when the policy says refuse', async () => {
      const script = scripted(() => ({ action: 'accept' }), { modes: { form: true, url: true } });
      const client = await connect(refusing.url, { ui: script, era });
      try {
        const lookalike = 'https://login.example.com.evil.io/start';
        expect(textOf(await client.callTool('warehouse_open_link', { url: lookalike }))).toBe('link decline');
        expect(
          textOf(
            await client.callTool('warehouse_open_link', { url: 'https://accounts.example.com/connect' }),
          ),
        ).toBe('link accept');
        expect(script.asked.map((record) => record.url)).toEqual(['https://accounts.example.com/connect']);
      } finally {
        await client.close();
      }
    });

    it('answers a form outside the MCP subset without asking, as a client would', async () => {
      const script = scripted({});
      const client = await connect(running.url, { ui: script, era });
      try {
        const result = await client.callTool('warehouse_nested');
        expect(script.asked).toEqual([]);
        // A 2026-07-28 upstream hears `cancel`; a 2025 one gets -32602 from its elicitation/create.
        expect(textOf(result)).toMatch(upstreamEra === '2026-07-28' ? /^nested cancel$/ : /./);
        expect(running.audit.at(-1)).toMatchObject({
          name: 'warehouse_nested',
          outcome: 'refused',
          mode: 'form',
        });
      } finally {
        await client.close();
      }
    });

    it('stops a call whose upstream floods the host with questions', async () => {
      const script = scripted({});
      const client = await connect(running.url, { ui: script, era });
      try {
        const result = await client.callTool('warehouse_flood');
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/asked 25 questions .*at most 20/);
        expect(script.asked).toEqual([]);
      } finally {
        await client.close();
      }
    });
  });

  it('relays a 2025 upstream link completion to a 2025-11-25 host with the id the host was given', async () => {
    if (upstreamEra !== '2025-11-25') return;
    const events: { type: string; elicitationId?: string }[] = [];
    const script = scripted(() => ({ action: 'accept', wait: 'finished' }), {
      modes: { form: true, url: true },
    });
    const client: ParleyClient = await connect(running.url, {
      ui: script,
      era: 'handshake',
      onEvent: (event) => events.push(event),
    });
    try {
      expect(
        textOf(await client.callTool('warehouse_open_link', { url: 'https://accounts.example.com/connect' })),
      ).toBe('link accept');
      const complete = events.find((event) => event.type === 'url-complete');
      expect(complete?.elicitationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(complete?.elicitationId).not.toBe('up-flow-1');
    } finally {
      await client.close();
    }
  });
});
