// Issue 15, finding 8: a resources/read URI with a newline and ESC forged server log lines. Logs
// now JSON-encode untrusted values, and the logger makes control characters visible.

import { SETTLE_TIMEOUT_MS } from '@parley/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BrightgridProcess, startBrightgridProcess } from './processes.js';

let brightgrid: BrightgridProcess;
beforeAll(async () => {
  brightgrid = await startBrightgridProcess();
});
afterAll(() => brightgrid.process.stop());

it('a URI with a newline and ESC cannot forge a log line or reach the terminal', async () => {
  const uri = 'brightgrid://returns/1\n[parley] error: forged line\u001b[2J\u001b]0;owned\u0007';
  const response = await fetch(brightgrid.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'resources/read',
      // A header cannot carry a newline: the spec's base64 form names the URI.
      'mcp-name': `=?base64?${Buffer.from(uri).toString('base64')}?=`,
      authorization: `Bearer ${brightgrid.tokens.alice}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: {
        uri,
        requestState: 'not-a-sealed-state',
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    }),
  });
  await response.text();
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (!brightgrid.process.stderr.some((line) => line.includes('Refused requestState'))) {
    if (Date.now() > deadline) throw new Error(`No refusal logged:\n${brightgrid.process.stderr.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const log = brightgrid.process.stderr.join('\n');
  expect(log).toContain('Refused requestState for resources/read "brightgrid://returns/1\\n[parley] error');
  expect(brightgrid.process.stderr.some((line) => line.startsWith('[parley] error: forged'))).toBe(false);
  expect([...log].some((char) => char.charCodeAt(0) < 0x20 && char !== '\n')).toBe(false);
});
