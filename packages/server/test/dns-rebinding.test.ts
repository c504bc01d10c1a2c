// DNS-rebinding protection on every route of the endpoint and on both eras: a Host header the
// server was not told about is refused with 403 before anything runs, whether it is a 2025
// initialize, a 2026-07-28 call, a subscriptions/listen stream or a tasks/get; `allowedHosts` names
// the hostnames a deployment is reached by, and then only those are served.
import { createServer, type Listening } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernHeaders } from './wire/http-wire.js';
import { CAPABILITIES, modernMeta } from './wire/modern-envelope.js';
import { rawRequest } from './wire/raw-http.js';

let loopback: Listening;
let deployed: Listening;
let runs = 0;

function build() {
  const server = createServer({ name: 'rebinding-test', version: '1.0.0', log: () => {} });
  server.tool('count', {}, () => `Run ${++runs}.`);
  return server;
}

beforeAll(async () => {
  loopback = await build().listen({ port: 0 });
  deployed = await build().listen({ port: 0, allowedHosts: ['mcp.example.com'] });
});
afterAll(async () => {
  await loopback?.close();
  await deployed?.close();
});

const modern = (method: string, params: Record<string, unknown>) => {
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method,
    params: { _meta: modernMeta(CAPABILITIES.formOnly), ...params },
  };
  return { headers: modernHeaders(message), body: JSON.stringify(message) };
};
const REQUESTS = {
  'a 2025 initialize': {
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  },
  'a 2026-07-28 tools/call': modern('tools/call', { name: 'count', arguments: {} }),
  'subscriptions/listen': modern('subscriptions/listen', { notifications: { toolsListChanged: true } }),
  'tasks/get': (() => {
    const request = modern('tasks/get', { taskId: 'any' });
    return { ...request, headers: { ...request.headers, 'mcp-name': 'any' } };
  })(),
};

async function send(url: string, host: string, request: { headers: Record<string, string>; body: string }) {
  return rawRequest(url, { headers: { ...request.headers, host }, body: request.body });
}

describe('the Host header check', () => {
  it('refuses a foreign Host on every route with 403, before anything runs', async () => {
    const port = new URL(loopback.url).port;
    runs = 0;
    for (const [label, request] of Object.entries(REQUESTS)) {
      for (const host of [`evil.example:${port}`, `localhost.evil.example:${port}`]) {
        const refused = await send(loopback.url, host, request);
        expect(refused.status, `${label} with Host ${host}`).toBe(403);
        expect(JSON.parse(refused.body).error.message).toMatch(/^Forbidden/);
      }
    }
    expect(runs).toBe(0);
  });

  it('with allowedHosts, serves the deployment hostname and refuses the rest, loopback names included', async () => {
    const port = new URL(deployed.url).port;
    runs = 0;
    const call = REQUESTS['a 2026-07-28 tools/call'];
    const served = await send(deployed.url, `mcp.example.com:${port}`, call);
    expect(served.status).toBe(200);
    expect(served.body).toContain('Run 1.');
    const initialized = await send(deployed.url, 'mcp.example.com', REQUESTS['a 2025 initialize']);
    expect(initialized.status).toBe(200);
    for (const host of [`localhost:${port}`, `evil.example:${port}`]) {
      expect((await send(deployed.url, host, call)).status, host).toBe(403);
    }
    expect(runs).toBe(1);
  });

  it('a Host that passed lets only that same Host through after it: the next foreign one is refused', async () => {
    const port = new URL(loopback.url).port;
    runs = 0;
    const call = REQUESTS['a 2026-07-28 tools/call'];
    for (const host of [
      `localhost:${port}`,
      `evil.example:${port}`,
      `localhost:${port}`,
      `evil.example:${port}`,
    ]) {
      const answered = await send(loopback.url, host, call);
      expect(answered.status, host).toBe(host.startsWith('evil') ? 403 : 200);
    }
    expect(runs).toBe(2);
  });
});
