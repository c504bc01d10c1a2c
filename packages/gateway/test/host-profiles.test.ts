import { testClient } from '@parley/client/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway, startUpstream, textOf, type Upstream } from './support.js';

// The gateway is a Parley server to its hosts, so the host profiles reach the hosts in front of it:
// a Codex host gets the upstream's forms lowered for Codex (a number as text, a multi-select as
// yes/no fields), and the upstream gets the answer in its own types. Turned off, the same host is
// sent what it cannot show.

const ANSWERS = (request: { message: string }) =>
  /How many boxes/.test(request.message)
    ? { boxes: 2 }
    : /Which day/.test(request.message)
      ? { value: '2026-09-01' }
      : /Toppings/.test(request.message)
        ? { value: ['cheese', 'olives'] }
        : undefined;

describe.each(['2025-11-25', '2026-07-28'] as const)('an upstream spoken to in %s', (upstreamEra) => {
  let desk: Upstream;
  let profiled: RunningGateway;
  let unprofiled: RunningGateway;
  beforeAll(async () => {
    desk = await startUpstream('parley-upstream.mjs', 'http');
    const config = { upstreams: { desk: { url: desk.url, era: upstreamEra } } };
    profiled = await startGateway(config);
    unprofiled = await startGateway(config, { server: { hosts: false } });
  });
  afterAll(async () => {
    await profiled?.stop();
    await unprofiled?.stop();
    await desk?.stop();
  });

  it.each(['handshake', 'modern'] as const)('a Codex host on the %s era gets lowered forms', async (era) => {
    const codex = await testClient(profiled.gateway.server, {
      host: 'codex-mcp-client',
      era,
      answers: ANSWERS,
    });
    try {
      expect(textOf(await codex.callTool('book'))).toBe('Booked P-2-2026-09-01: 2 box(es) on 2026-09-01.');
      expect(textOf(await codex.callTool('pick'))).toBe('Picked cheese+olives');
      const [boxes, , toppings] = codex.host!.questions;
      expect(boxes!.requestedSchema).toMatchObject({ properties: { boxes: { type: 'string' } } });
      expect(Object.keys((toppings!.requestedSchema as { properties: object }).properties)).toEqual([
        'value.ham',
        'value.cheese',
        'value.olives',
      ]);
      expect(codex.host!.questions.flatMap((question) => question.problems)).toEqual([]);
    } finally {
      await codex.close();
    }
  });

  it('without host profiles the same host is sent a number it cannot show', async () => {
    const codex = await testClient(unprofiled.gateway.server, {
      host: 'codex-mcp-client',
      era: 'modern',
      answers: ANSWERS,
    });
    try {
      await codex.callTool('book');
      expect(codex.host!.questions[0]!.problems).toEqual([
        'field boxes (integer) cannot be shown: only approve or decline is offered',
      ]);
    } finally {
      await codex.close();
    }
  });
});
