import { connect, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway, startUpstream, textOf, type Upstream } from './support.js';

// Era `auto` in front of an upstream that offers 2026-07-28 but has a tool that can ask only with a
// server-to-client request (FastMCP 4's ctx.elicit, the Python SDK's): the tool fails on 2026-07-28
// and the gateway calls it again on a 2025 session. What the person answers reaches the upstream,
// and the audit names the revision the question was really asked on.
describe('era auto, a tool that asks only over the handshake', () => {
  let warehouse: Upstream;
  let running: RunningGateway;
  beforeAll(async () => {
    warehouse = await startUpstream('raw-upstream.mjs');
    running = await startGateway({ upstreams: { warehouse: { url: warehouse.url, title: 'Warehouse' } } });
  });
  afterAll(async () => {
    await running?.stop();
    await warehouse?.stop();
  });

  it.each([
    ['modern', '2026-07-28'],
    ['handshake', '2025-11-25'],
  ] as const)('is called again on 2025 for a %s host, and audited as asked there', async (era, revision) => {
    expect(running.gateway.status().upstreams[0]).toMatchObject({ protocolVersion: '2026-07-28' });
    const script = scripted({ 'Warehouse asks: Which aisle?': [{ aisle: 7 }, { action: 'decline' }] });
    const client = await connect(running.url, { ui: script, era });
    try {
      expect(textOf(await client.callTool('ask_by_push'))).toBe('aisle 7');
      expect(textOf(await client.callTool('ask_by_push'))).toBe('aisle decline');
      expect(script.asked.map((record) => record.message)).toEqual([
        'Warehouse asks: Which aisle?',
        'Warehouse asks: Which aisle?',
      ]);
      const audit = running.audit.filter((event) => event.pairing.startsWith(revision));
      expect(audit.map((event) => [event.name, event.pairing, event.outcome])).toEqual([
        ['ask_by_push', `${revision} > 2025-11-25`, 'accept'],
        ['ask_by_push', `${revision} > 2025-11-25`, 'decline'],
      ]);
    } finally {
      await client.close();
    }
  });
});
