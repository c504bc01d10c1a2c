import { describe, expect, it } from 'vitest';
import { checkRequestedSchema } from './check-schema.js';
import { receiveRequestedSchema } from './receive-schema.js';

describe('receiveRequestedSchema', () => {
  it('sets a root title and description aside (pydantic model schemas carry them) and keeps the form strict', () => {
    const sent = {
      title: 'Person',
      description: 'Who you are',
      type: 'object',
      properties: { name: { type: 'string', title: 'Name' } },
      required: ['name'],
    };
    expect(checkRequestedSchema(sent).map((problem) => problem.path)).toEqual(['/title', '/description']);
    const received = receiveRequestedSchema(sent);
    expect(received).toEqual({
      ok: true,
      title: 'Person',
      description: 'Who you are',
      schema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
    });
    expect(sent.title).toBe('Person');
  });

  it("types FastMCP's multi-select items (enum without type) as strings", () => {
    const received = receiveRequestedSchema({
      type: 'object',
      properties: { value: { type: 'array', items: { enum: ['a', 'b'] } } },
    });
    expect(received).toEqual({
      ok: true,
      schema: {
        type: 'object',
        properties: { value: { type: 'array', items: { enum: ['a', 'b'], type: 'string' } } },
      },
    });
  });

  it('drops additionalProperties: false, and nothing else outside the subset', () => {
    expect(receiveRequestedSchema({ type: 'object', properties: {}, additionalProperties: false })).toEqual({
      ok: true,
      schema: { type: 'object', properties: {} },
    });
    const refused = receiveRequestedSchema({
      title: 'Home',
      type: 'object',
      properties: { address: { type: 'object' } },
      additionalProperties: true,
    });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.problems.map((problem) => problem.path)).toEqual([
      '/additionalProperties',
      '/properties/address/type',
    ]);
    expect(receiveRequestedSchema('nope').ok).toBe(false);
    expect(
      receiveRequestedSchema({ type: 'object', properties: { m: { type: 'array', items: { enum: [1] } } } })
        .ok,
    ).toBe(false);
  });
});
