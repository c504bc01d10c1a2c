import {
  Client,
  type ElicitRequestFormParams,
  type ElicitResult,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { elicitationModes } from '@parley/core/capabilities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../create-server.js';
import type { Listening } from '../serve/listen.js';
import { registerKind } from './kind-table.js';
import type { QuestionKind } from './question-kind.js';

/**
 * A kind the server does not ship: a yes/no confirmation, asked as a one-checkbox form and handed
 * to the handler as a boolean. It reaches the server through the table alone.
 */
type ConfirmItem = { readonly kind: 'confirm'; readonly key: string; readonly message: string };

const CHECKBOX: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: { yes: { type: 'boolean', title: 'Yes' } },
  required: ['yes'],
};

const confirmKind: QuestionKind<ConfirmItem> = {
  name: 'confirm',
  capability: {
    required: { elicitation: { form: {} } },
    declared: (capabilities) => elicitationModes(capabilities).form,
    steer: 'this client cannot show a confirmation; take it as a tool argument instead',
  },
  item: (key, entry) => ({ kind: 'confirm', key, message: String(entry.message) }),
  fingerprintText: (item) => `confirm\0${item.key}\0${item.message}`,
  request: {
    modern: (_item, message) => ({
      method: 'elicitation/create',
      params: { mode: 'form', message, requestedSchema: CHECKBOX },
    }),
    handshake: (_item, message) => ({
      method: 'elicitation/create',
      params: { mode: 'form', message, requestedSchema: CHECKBOX },
    }),
  },
  expected: 'an ElicitResult',
  check(item, reply) {
    const { action, content } = (reply ?? {}) as { action?: unknown; content?: { yes?: unknown } };
    if (action === 'decline' || action === 'cancel') return { status: 'ok', result: false };
    if (action !== 'accept')
      return { status: 'malformed', problem: `the answer for '${item.key}' is not an ElicitResult` };
    if (typeof content?.yes !== 'boolean') return { status: 'invalid', reason: 'Tick yes or no.' };
    return { status: 'ok', result: content.yes };
  },
  encode: (_item, result) => (result ? 1 : 0),
  decode: (_item, encoded) => encoded === 1,
};

registerKind(confirmKind);

let listening: Listening;

beforeAll(async () => {
  const server = createServer({ name: 'kinds', version: '1.0.0' });
  server.tool('deploy', { description: 'Deploys after two confirmations' }, async (_args, ctx) => {
    const first = await ctx.elicitAll({ sure: { kind: 'confirm', message: 'Deploy now?' } } as never);
    const second = await ctx.elicitAll({ really: { kind: 'confirm', message: 'Really?' } } as never);
    return `sure=${String((first as { sure: boolean }).sure)} really=${String((second as { really: boolean }).really)}`;
  });
  listening = await server.listen();
});

afterAll(() => listening.close());

async function modernCall(params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        'io.modelcontextprotocol/clientInfo': { name: 'kinds-test', version: '1.0.0' },
      },
      name: 'deploy',
      arguments: {},
      ...params,
    },
  };
  const response = await fetch(listening.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'deploy',
    },
    body: JSON.stringify(message),
  });
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  expect(body.error).toBeUndefined();
  return body.result!;
}

describe('a question kind added through the table alone', () => {
  it('is asked, re-asked with its reason, journaled and replayed on 2026-07-28', async () => {
    const r1 = await modernCall({});
    expect(r1.inputRequests).toEqual({
      sure: {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Deploy now?', requestedSchema: CHECKBOX },
      },
    });
    const r2 = await modernCall({
      requestState: r1.requestState,
      inputResponses: { sure: { action: 'accept', content: {} } },
    });
    const reasked = r2.inputRequests as { sure: { params: { message: string } } };
    expect(reasked.sure.params.message).toBe('That answer could not be used: Tick yes or no.\n\nDeploy now?');
    const r3 = await modernCall({
      requestState: r2.requestState,
      inputResponses: { sure: { action: 'accept', content: { yes: true } } },
    });
    expect(Object.keys(r3.inputRequests as object)).toEqual(['really']);
    const r4 = await modernCall({
      requestState: r3.requestState,
      inputResponses: { really: { action: 'decline' } },
    });
    expect(r4.resultType).toBe('complete');
    expect(r4.content).toEqual([{ type: 'text', text: 'sure=true really=false' }]);
  });

  it('is asked over the session on the handshake era', async () => {
    const client = new Client(
      { name: 'kinds-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, supportedProtocolVersions: ['2025-11-25'] },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request): ElicitResult => {
      asked.push(request.params.message);
      if (asked.length === 1) return { action: 'accept', content: {} };
      return { action: 'accept', content: { yes: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
    try {
      const result = await client.callTool({ name: 'deploy', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'sure=true really=true' }]);
      expect(asked).toEqual([
        'Deploy now?',
        'That answer could not be used: Tick yes or no.\n\nDeploy now?',
        'Really?',
      ]);
    } finally {
      await client.close();
    }
  });
});
