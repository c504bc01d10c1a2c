import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inboundProblem } from './inbound-guard.js';

const call = (params: unknown, method = 'tools/call') => ({ jsonrpc: '2.0', id: 1, method, params });

describe('inboundProblem', () => {
  it('accepts well-formed retries and anything that is not a round method', () => {
    expect(
      inboundProblem(call({ name: 't', inputResponses: { a: { action: 'accept' } }, requestState: 'x' })),
    ).toBeUndefined();
    expect(inboundProblem(call({ name: 't' }))).toBeUndefined();
    expect(inboundProblem(call({ inputResponses: null }, 'tools/list'))).toBeUndefined();
    expect(inboundProblem({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
  });

  it.each([
    [{ inputResponses: null }, /must be an object/],
    [{ inputResponses: 'x' }, /must be an object/],
    [{ inputResponses: [] }, /must be an object/],
    [{ inputResponses: { user_name: 12345 } }, /'user_name' must be a result object/],
    [{ inputResponses: { a: { action: 'accept' }, b: null } }, /'b'/],
    [{ requestState: 42 }, /requestState/],
  ])('refuses %j', (params, message) => {
    for (const method of ['tools/call', 'prompts/get', 'resources/read']) {
      expect(inboundProblem(call({ name: 't', ...params }, method))).toMatch(message);
    }
  });

  it('never throws on any message', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (params, responses) => {
        inboundProblem(params);
        inboundProblem(call({ name: 't', inputResponses: responses, requestState: params }));
      }),
    );
  });
});
