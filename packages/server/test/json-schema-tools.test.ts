// A tool whose input is plain JSON Schema 2020-12 (jsonSchema()): listed byte for byte as written
// ($schema, $defs with $anchor, $ref, allOf/anyOf, if/then/else, additionalProperties) on both eras,
// and its arguments checked against every one of those keywords before the handler runs.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, jsonSchema, type Listening } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpWire } from './wire/http-wire.js';
import { callTool } from './wire/modern-envelope.js';

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string', minLength: 2 } },
      required: ['city'],
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema conditional, never awaited
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

let listening: Listening;
let runs = 0;

beforeAll(async () => {
  const server = createServer({ name: 'schema-test', version: '1.0.0', log: () => {} });
  server.tool('save_contact', { input: jsonSchema(structuredClone(SCHEMA)) }, (args) => {
    runs++;
    return `Saved ${JSON.stringify(args)}`;
  });
  listening = await server.listen({ port: 0 });
});
afterAll(() => listening?.close());

const VALID = { name: 'Ann', contactMethod: 'phone', phone: '555', address: { city: 'Oslo' } };
const INVALID: readonly [string, Record<string, unknown>][] = [
  ['then: phone is required when contactMethod is phone', { contactMethod: 'phone', email: 'a@b.c' }],
  ['else: email is required otherwise', { phone: '555' }],
  ['$ref into $defs: the address needs a city', { email: 'a@b.c', address: { street: 'Main' } }],
  ['additionalProperties: false', { email: 'a@b.c', nickname: 'A' }],
  ['enum', { email: 'a@b.c', contactMethod: 'fax' }],
];

describe('a tool with a JSON Schema 2020-12 input', () => {
  it('2026-07-28: lists the schema exactly as written, runs valid arguments, refuses each invalid kind', async () => {
    const wire = httpWire(listening.url);
    const list = await wire.request('tools/list', {});
    const tools = list.message.result?.tools as { name: string; inputSchema: unknown }[];
    expect(tools.find((tool) => tool.name === 'save_contact')?.inputSchema).toEqual(SCHEMA);

    const ok = await callTool(wire, 'save_contact', VALID);
    expect(ok.message.result?.isError).toBeFalsy();
    runs = 0;
    for (const [label, args] of INVALID) {
      const refused = await callTool(wire, 'save_contact', args);
      const failed = refused.message.error !== undefined || refused.message.result?.isError === true;
      expect(failed, label).toBe(true);
    }
    expect(runs).toBe(0);
  });

  it('2025-11-25: the official client sees the same schema and the same refusals', async () => {
    const client = new Client({ name: 'schema-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'save_contact')?.inputSchema).toEqual(SCHEMA);
      runs = 0;
      for (const [label, args] of INVALID) {
        const outcome = await client.callTool({ name: 'save_contact', arguments: args }).then(
          (result) => result.isError === true,
          () => true,
        );
        expect(outcome, label).toBe(true);
      }
      expect(runs).toBe(0);
      const ok = await client.callTool({ name: 'save_contact', arguments: VALID });
      expect(ok.content).toEqual([{ type: 'text', text: `Saved ${JSON.stringify(VALID)}` }]);
    } finally {
      await client.close();
    }
  });
});
