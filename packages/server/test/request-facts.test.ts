// What a handler is told about the request it serves (ctx.era, ctx.protocolVersion, ctx.transport),
// over each transport in each era: the fixture's request_facts tool answers them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHandshake, type HandshakeTarget, textOf } from './wire/handshake-client.js';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';
import { callTool } from './wire/modern-envelope.js';
import { toolResultOf } from './wire/modern-results.js';
import { startModernWire, type Transport } from './wire/start-modern.js';

describe.each([['stdio'], ['http']] as [Transport][])('the request facts over %s', (transport) => {
  let http: HttpFixture | undefined;
  beforeAll(async () => {
    if (transport === 'http') http = await startHttpFixture();
  });
  afterAll(() => http?.stop());

  it('on 2026-07-28', async () => {
    const wire = await startModernWire(transport);
    try {
      const facts = JSON.parse(toolResultOf(await callTool(wire, 'request_facts', {})).text);
      expect(facts).toEqual({ era: 'modern', protocolVersion: '2026-07-28', transport });
    } finally {
      await wire.close();
    }
  });

  it('on 2025-11-25', async () => {
    const target: HandshakeTarget = http === undefined ? { stdio: {} } : { url: http.url };
    const connection = await connectHandshake(target, { capabilities: {} });
    try {
      const facts = JSON.parse(textOf(await connection.callTool('request_facts')));
      expect(facts).toEqual({ era: 'handshake', protocolVersion: '2025-11-25', transport });
    } finally {
      await connection.close();
    }
  });
});
