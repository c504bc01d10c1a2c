// SEP-2243: a 2026-07-28 request whose headers disagree with its body is refused with HTTP 400 and
// -32020 before any handler runs (a gateway that routes or authorizes by Mcp-Name or Mcp-Param-*
// must not be bypassable), while headers that agree, in any letter case and with surrounding
// whitespace or base64, are served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';
import { httpWire, modernHeaders } from './wire/http-wire.js';
import { CAPABILITIES, type ModernWire, modernMeta } from './wire/modern-envelope.js';
import { countersOf } from './wire/modern-results.js';
import { rawRequest } from './wire/raw-http.js';

let fixture: HttpFixture;
let wire: ModernWire;
beforeAll(async () => {
  fixture = await startHttpFixture();
  wire = httpWire(fixture.url, fixture.log);
});
afterAll(() => fixture?.stop());

function call(name: string, args: Record<string, unknown>) {
  return {
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { _meta: modernMeta(CAPABILITIES.formOnly), name, arguments: args },
  };
}

/** Sends `body` with a correct client's headers, changed by `edit`. */
async function send(body: Record<string, unknown>, edit: (headers: Record<string, string>) => void) {
  const headers = modernHeaders(body);
  edit(headers);
  const response = await rawRequest(fixture.url, { headers, body: JSON.stringify(body) });
  return { status: response.status, body: response.body };
}

const base64 = (text: string) => `=?base64?${Buffer.from(text).toString('base64')}?=`;

describe('standard headers against the body', () => {
  const refusals: [string, Record<string, unknown>, (headers: Record<string, string>) => void][] = [
    ['no Mcp-Method', call('regional', { region: 'eu' }), (h) => delete h['mcp-method']],
    ['no MCP-Protocol-Version', call('regional', { region: 'eu' }), (h) => delete h['mcp-protocol-version']],
    ['Mcp-Name naming another tool', call('regional', { region: 'eu' }), (h) => (h['mcp-name'] = 'counters')],
    ['no Mcp-Name', call('regional', { region: 'eu' }), (h) => delete h['mcp-name']],
    [
      'a method in other letter case',
      call('regional', { region: 'eu' }),
      (h) => (h['mcp-method'] = 'TOOLS/CALL'),
    ],
    ['no Mcp-Param-Region', call('regional', { region: 'eu' }), () => {}],
    [
      'Mcp-Param-Region naming another region',
      call('regional', { region: 'eu' }),
      (h) => (h['mcp-param-region'] = 'us'),
    ],
    [
      'a base64 Mcp-Param value without padding',
      call('regional', { region: 'Hello' }),
      (h) => (h['mcp-param-region'] = '=?base64?SGVsbG8?='),
    ],
    [
      'a base64 Mcp-Param value with foreign characters',
      call('regional', { region: 'Hello' }),
      (h) => (h['mcp-param-region'] = '=?base64?SGVs!!!bG8=?='),
    ],
    [
      'an integer Mcp-Param that disagrees',
      call('regional', { region: 'eu', zone: 3 }),
      (h) => {
        h['mcp-param-region'] = 'eu';
        h['mcp-param-zone'] = '4';
      },
    ],
  ];

  it.each(refusals)('refuses %s with 400 and -32020, running nothing', async (_label, body, edit) => {
    const before = (await countersOf(wire)).runs.regional ?? 0;
    const refused = await send(body, edit);
    expect(refused.status).toBe(400);
    const error = JSON.parse(refused.body).error;
    expect(error.code).toBe(-32020);
    expect(error.data.mismatch).toBeDefined();
    expect((await countersOf(wire)).runs.regional ?? 0).toBe(before);
  });

  it('serves headers that agree: any name case, whitespace, base64, numbers compared as numbers', async () => {
    const served = [
      await send(call('regional', { region: 'eu' }), (h) => {
        h['MCP-PARAM-REGION'] = '  eu  ';
        h['mcp-name'] = '  regional ';
      }),
      await send(call('regional', { region: 'Zürich' }), (h) => (h['mcp-param-region'] = base64('Zürich'))),
      await send(call('regional', { region: '=?base64?eu' }), (h) => (h['mcp-param-region'] = '=?base64?eu')),
      await send(call('regional', { region: 'eu', zone: 3 }), (h) => {
        h['mcp-param-region'] = 'eu';
        h['mcp-param-zone'] = '3.0';
      }),
      await send(call('regional', { region: 'eu' }), (h) => {
        h['mcp-param-region'] = 'eu';
        h['mcp-name'] = base64('regional');
      }),
    ];
    for (const response of served) {
      expect(response.status).toBe(200);
      expect(response.body).toContain('Routed to');
    }
  });
});
