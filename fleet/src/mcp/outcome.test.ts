import { describe, expect, it } from 'vitest';
import type { HttpReply } from '../lb/send.js';
import { outcomeOf, unclearReason } from './outcome.js';

const json = (status: number, message: unknown): HttpReply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(message),
});

describe('outcomeOf', () => {
  it('names the status and the body of a JSON answer that is not a JSON-RPC response', () => {
    const refused = outcomeOf(json(401, { error: 'invalid_token', error_description: 'revoked' }));
    expect(refused).toEqual({
      kind: 'bad',
      reason:
        'HTTP 401, the response has neither result nor error: {"error":"invalid_token","error_description":"revoked"}',
    });
  });

  it('reads an InputRequiredResult, a tool result, and an error', () => {
    const asked = outcomeOf(
      json(200, {
        jsonrpc: '2.0',
        id: 1,
        result: {
          resultType: 'input_required',
          inputRequests: { q: { method: 'elicitation/create', params: { mode: 'form', message: 'Q?' } } },
          requestState: 'st',
        },
      }),
    );
    expect(asked).toEqual({
      kind: 'input_required',
      questions: { q: { mode: 'form', message: 'Q?' } },
      requestState: 'st',
    });
    const done = outcomeOf(
      json(200, {
        jsonrpc: '2.0',
        id: 1,
        result: { content: [{ type: 'text', text: 'ok' }], structuredContent: { a: 1 } },
      }),
    );
    expect(done).toEqual({ kind: 'complete', text: 'ok', data: { a: 1 }, isError: false });
    expect(
      outcomeOf(json(200, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid' } })),
    ).toEqual({
      kind: 'rpc_error',
      code: -32602,
      message: 'Invalid',
      httpStatus: 200,
    });
  });

  it('reads the last message of an SSE stream', () => {
    const body = `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n\n`;
    const outcome = outcomeOf({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });
    expect(outcome.kind).toBe('complete');
  });
});

describe('unclearReason', () => {
  it('names failures worth sending again: no response, the balancer giving up, a replica shutting down', () => {
    expect(unclearReason({ status: 0, headers: {}, body: '', error: 'socket hang up' })).toMatch(
      /socket hang up/,
    );
    expect(unclearReason({ status: 502, headers: { 'content-type': 'text/html' }, body: '<html>' })).toMatch(
      /502/,
    );
    const shutdown = json(200, {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'The server is shutting down; retry the request.' },
    });
    expect(unclearReason(shutdown)).toMatch(/shutting down/);
  });

  it('leaves real answers alone, errors included', () => {
    expect(
      unclearReason(json(200, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid' } })),
    ).toBeUndefined();
    expect(
      unclearReason(json(200, { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } })),
    ).toBeUndefined();
    expect(
      unclearReason({ status: 404, headers: { 'content-type': 'text/html' }, body: 'Not found' }),
    ).toBeUndefined();
  });
});
