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

// Issue 15, finding 8: `prompts/get` with array arguments answered -32603 with a raw zod dump.
describe('inboundProblem on a call’s own parameters', () => {
  it.each([
    [call({ name: 'p', arguments: ['a'] }, 'prompts/get'), /"arguments" must be an object/],
    [call({ name: 'p', arguments: { sku: 5 } }, 'prompts/get'), /prompt argument 'sku' must be a string/],
    [call({ name: 't', arguments: 'x' }), /"arguments" must be an object/],
    [call({ name: 7 }), /"name" must be a string/],
    [call({ uri: ['x'] }, 'resources/read'), /"uri" must be a string/],
  ])('refuses %j briefly', (message, reason) => {
    const problem = inboundProblem(message);
    expect(problem).toMatch(reason);
    expect(problem!.length).toBeLessThan(100);
  });

  it('accepts well-formed calls', () => {
    expect(inboundProblem(call({ name: 'p', arguments: { sku: 'BG-100' } }, 'prompts/get'))).toBeUndefined();
    expect(inboundProblem(call({ uri: 'brightgrid://returns' }, 'resources/read'))).toBeUndefined();
  });
});
