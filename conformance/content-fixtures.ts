import { content, jsonSchema, type ParleyServer, ToolError, toolResult } from '@parley/server';
import * as z from 'zod/v4';
import { RED_PIXEL_PNG, silentWav } from './media.js';

/** The tools whose results carry each kind of content, an error, or a JSON Schema 2020-12 input. */
export function addContentFixtures(server: ParleyServer): void {
  server.tool('test_image_content', { description: 'Returns an image' }, () =>
    toolResult(content.image(RED_PIXEL_PNG, 'image/png')),
  );

  server.tool('test_audio_content', { description: 'Returns audio' }, () =>
    toolResult(content.audio(silentWav(), 'audio/wav')),
  );

  server.tool('test_embedded_resource', { description: 'Returns an embedded resource' }, () =>
    toolResult(
      content.resource({
        uri: 'test://embedded-resource',
        mimeType: 'text/plain',
        text: 'This is an embedded resource content.',
      }),
    ),
  );

  server.tool('test_multiple_content_types', { description: 'Returns text, an image and a resource' }, () =>
    toolResult(
      'Multiple content types test:',
      content.image(RED_PIXEL_PNG, 'image/png'),
      content.resource({
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: JSON.stringify({ test: 'data', value: 123 }),
      }),
    ),
  );

  server.tool('test_error_handling', { description: 'Always fails' }, () => {
    throw new ToolError('This tool intentionally returns an error for testing');
  });

  server.tool(
    'test_sampling',
    { description: 'Asks the client model', input: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx) => {
      const reply = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      return `LLM response: ${reply.content.type === 'text' ? reply.content.text : `(${reply.content.type})`}`;
    },
  );

  server.tool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features',
      input: jsonSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
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
      }),
    },
    (args) => `Contact saved: ${JSON.stringify(args)}`,
  );

  server.tool(
    'test_custom_header',
    {
      description: 'Routes by region; the region travels in the Mcp-Param-Region header too',
      input: jsonSchema<{ region: string }>({
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      }),
    },
    ({ region }) => `Routed to ${region}.`,
  );
}
