import { connect, type ElicitationUI, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway, startUpstream, textOf, type Upstream } from './support.js';

// A Parley upstream behind the gateway, spoken to in each era, asked by Parley's client in each era:
// the four pairings. Everything crosses real loopback HTTP.
const UPSTREAM_ERAS = ['2026-07-28', '2025-11-25'] as const;
const HOST_ERAS = ['modern', 'handshake'] as const;

const SUMMARY = { role: 'assistant', content: { type: 'text', text: 'Short.' }, model: 'test-model' };

function host(answers: Parameters<typeof scripted>[0], modes = { form: true, url: false }) {
  const script = scripted(answers, { modes });
  const ui: ElicitationUI = {
    ...script,
    roots: async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
  };
  return { ui, asked: script.asked };
}

describe.each(UPSTREAM_ERAS)('an upstream spoken to in %s', (upstreamEra) => {
  let upstream: Upstream;
  let running: RunningGateway;
  beforeAll(async () => {
    upstream = await startUpstream('parley-upstream.mjs', 'http');
    running = await startGateway({ upstreams: { desk: { url: upstream.url, era: upstreamEra } } });
  });
  afterAll(async () => {
    await running?.stop();
    await upstream?.stop();
  });

  describe.each(HOST_ERAS)('asked by a %s host', (era) => {
    const hostRevision = era === 'modern' ? '2026-07-28' : '2025-11-25';

    it('relays each round to the person, says who asks, and books what they answered', async () => {
      const { ui, asked } = host({ boxes: { boxes: 2 }, day: { value: '2026-12-24' } });
      const client = await connect(running.url, { ui, era });
      try {
        expect(client.protocolVersion).toBe(hostRevision);
        const result = await client.callTool('book');
        expect(textOf(result)).toBe('Booked P-2-2026-12-24: 2 box(es) on 2026-12-24.');
        expect(asked.map((record) => [record.key, record.message])).toEqual([
          ['boxes', 'The desk asks: How many boxes?'],
          ['day', 'The desk asks: Which day?'],
        ]);
        const audit = running.audit.filter(
          (event) => event.name === 'book' && event.pairing === `${hostRevision} > ${upstreamEra}`,
        );
        expect(audit.map((event) => [event.key, event.mode, event.outcome])).toEqual([
          ['boxes', 'form', 'accept'],
          ['day', 'form', 'accept'],
        ]);
        expect(JSON.stringify(audit)).not.toContain('2026-12-24');
      } finally {
        await client.close();
      }
    });

    it('keeps decline and cancel apart', async () => {
      const { ui } = host({ boxes: [{ action: 'decline' }, { action: 'cancel' }] });
      const client = await connect(running.url, { ui, era });
      try {
        expect(textOf(await client.callTool('book'))).toBe('No pickup (decline).');
        expect(textOf(await client.callTool('book'))).toBe('No pickup (cancel).');
      } finally {
        await client.close();
      }
    });

    it('asks a round of several questions together', async () => {
      const { ui, asked } = host({ name: { value: 'Ada' }, color: { value: 'blue' } });
      const client = await connect(running.url, { ui, era });
      try {
        expect(textOf(await client.callTool('together'))).toBe('Ada likes blue');
        const rounds = new Set(asked.map((record) => record.round));
        // One InputRequiredResult carries both on 2026-07-28; over a 2025 session each is a request.
        if (era === 'modern') expect(rounds.size).toBe(1);
        expect(asked.map((record) => record.key).sort()).toEqual(['color', 'name']);
      } finally {
        await client.close();
      }
    });

    it('relays sampling and roots to a host that declared them', async () => {
      const { ui } = host({ summary: SUMMARY });
      const client = await connect(running.url, { ui, era });
      try {
        expect(textOf(await client.callTool('summarize'))).toBe('Model said: Short.');
        expect(textOf(await client.callTool('list_roots'))).toBe('Roots: file:///work');
      } finally {
        await client.close();
      }
    });

    it('tells the upstream exactly what the host declared', async () => {
      const cases = [
        [{ form: true, url: false }, { form: {} }],
        [
          { form: true, url: true },
          { form: {}, url: {} },
        ],
        // A host that shows no form but opens links: forms on the gateway's pages, by URL mode.
        [
          { form: false, url: true },
          { form: {}, url: {} },
        ],
      ] as const;
      for (const [modes, elicitation] of cases) {
        const client = await connect(running.url, { ui: scripted({}, { modes }), era });
        try {
          const seen = JSON.parse(textOf(await client.callTool('caps'))) as {
            capabilities: Record<string, unknown>;
            protocolVersion: string;
          };
          expect(seen.protocolVersion).toBe(upstreamEra);
          // The scripted host declares no sampling and no roots: neither may reach the upstream.
          expect(seen.capabilities).toEqual({ elicitation });
        } finally {
          await client.close();
        }
      }
    });

    it('passes prompts, resources, templates and completions on', async () => {
      const { ui } = host({ tone: { value: 'warm' } });
      const client = await connect(running.url, { ui, era });
      try {
        const prompt = await client.getPrompt('greet', { who: 'Ada' });
        expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Say hello to Ada, warm.' });
        expect(await client.listResources()).toEqual([
          expect.objectContaining({ uri: 'desk://info', name: 'info' }),
        ]);
        expect(await client.listResourceTemplates()).toEqual([
          expect.objectContaining({ uriTemplate: 'desk://orders/{id}' }),
        ]);
        const order = await client.readResource('desk://orders/1002');
        expect(order.contents).toEqual([
          expect.objectContaining({ uri: 'desk://orders/1002', text: 'order 1002' }),
        ]);
        const tools = await client.listTools();
        expect(tools.find((tool) => tool.name === 'echo')?.inputSchema).toMatchObject({
          properties: { text: { type: 'string' } },
          required: ['text'],
        });
      } finally {
        await client.close();
      }
    });
  });
});
