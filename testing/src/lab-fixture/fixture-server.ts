/**
 * The MCP server the lab's end-to-end tests drive, written with @parley/server: a form with every
 * field kind, a form whose defaults the person may clear, a three-round tool, two questions in one round, URL flows (a punycode host, and a
 * `javascript:` URL that must never open), tool input forms, rich results and a tool error.
 *
 *   node testing/dist/lab-fixture/fixture-server.js            # stdio
 *   node testing/dist/lab-fixture/fixture-server.js --http     # prints its http://127.0.0.1:<port>/mcp URL
 */
import { ask, createServer, type ElicitOutcome } from '@parley/server';
import * as z from 'zod/v4';
import { EVERY_FIELD_SCHEMA } from './every-field-schema.js';

/** A one-pixel PNG, to show an image result. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function outcome(answer: ElicitOutcome<unknown>): string {
  return answer.action === 'accept' ? `accept ${JSON.stringify(answer.value)}` : answer.action;
}

export function labFixtureServer() {
  const server = createServer({ name: 'lab-fixture', version: '1.2.3' });

  server.tool('every_field', { description: 'Asks one question of every field kind' }, async (_args, ctx) => {
    const answer = await ctx.elicit('Tell us about your order.', EVERY_FIELD_SCHEMA, { key: 'order' });
    return `every_field: ${outcome(answer)}`;
  });

  server.tool(
    'cleared_default',
    { description: 'Asks for an optional note and a number of boxes, both with a default' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        'Any delivery note?',
        {
          type: 'object',
          properties: {
            note: { type: 'string', title: 'Delivery note', default: 'Leave at the door' },
            boxes: { type: 'integer', title: 'Boxes', minimum: 1, maximum: 5, default: 1 },
          },
          required: ['boxes'],
        },
        { key: 'note' },
      );
      return `cleared_default: ${outcome(answer)}`;
    },
  );

  server.tool('three_rounds', { description: 'Asks three questions, one round each' }, async (_args, ctx) => {
    const name = await ctx.elicit('What is your name?', ask.text({ title: 'Name' }), { key: 'name' });
    if (name.action !== 'accept') return `stopped at round 1: ${name.action}`;
    const boxes = await ctx.elicit(
      `Hello ${name.value}. How many boxes?`,
      ask.integer({ title: 'Boxes', min: 1, max: 3 }),
      { key: 'boxes' },
    );
    if (boxes.action !== 'accept') return `stopped at round 2: ${boxes.action}`;
    const sure = await ctx.elicit('Book the pickup?', ask.boolean({ title: 'Book it' }), { key: 'confirm' });
    if (sure.action !== 'accept') return `stopped at round 3: ${sure.action}`;
    return `three_rounds: ${name.value} booked ${boxes.value} box(es), confirmed=${sure.value}`;
  });

  server.tool('two_at_once', { description: 'Asks two questions in one round' }, async (_args, ctx) => {
    const answers = await ctx.elicitAll({
      city: ['Which city?', ask.choice(['Lyon', 'Oslo', 'Quito'], { title: 'City' })],
      nights: ['How many nights?', ask.integer({ title: 'Nights', min: 1, max: 14 })],
    });
    return `two_at_once: city ${outcome(answers.city)}; nights ${outcome(answers.nights)}`;
  });

  server.tool('sign_in', { description: 'Sends you to a web page (punycode host)' }, async (_args, ctx) => {
    const consent = await ctx.elicitUrl(
      'Sign in to your bookshop account to continue.',
      'https://login.xn--bcher-kva.com/connect?flow=42',
      { key: 'sign_in' },
    );
    return `sign_in: ${consent.action}`;
  });

  server.tool(
    'bad_link',
    { description: 'Sends a javascript: URL, which must never open' },
    async (_args, ctx) => {
      const consent = await ctx.elicitUrl('Open this to continue.', 'javascript:alert(document.domain)', {
        key: 'bad_link',
      });
      return `bad_link: ${consent.action}`;
    },
  );

  server.tool(
    'echo',
    {
      description: 'Returns its arguments',
      input: z.object({
        text: z.string().describe('Any text'),
        count: z.number().int().min(1).max(10).describe('How many times'),
        mood: z.enum(['calm', 'busy']).optional(),
        loud: z.boolean().optional(),
        tags: z.array(z.string()).optional().describe('A list of tags'),
      }),
    },
    (args) => ({
      content: [{ type: 'text', text: `echo: ${JSON.stringify(args)}` }],
      structuredContent: { echoed: args },
    }),
  );

  server.tool('picture', { description: 'Returns an image and an embedded resource' }, () => ({
    content: [
      { type: 'text', text: 'A picture:' },
      { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'lab://notes/1', mimeType: 'text/plain', text: 'Note one' } },
    ],
  }));

  server.tool('broken', { description: 'Always fails' }, () => ({
    content: [{ type: 'text', text: 'The warehouse is closed.' }],
    isError: true,
  }));

  server.prompt(
    'greeting',
    { description: 'A greeting prompt', args: z.object({ name: z.string().describe('Who to greet') }) },
    ({ name }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}.` } }],
    }),
  );

  server.resource(
    'lab://readme',
    { name: 'readme', description: 'About this server', mimeType: 'text/plain' },
    () => ({
      contents: [{ uri: 'lab://readme', mimeType: 'text/plain', text: 'The lab fixture server.' }],
    }),
  );

  server.resource(
    'lab://notes/{id}',
    { name: 'note', description: 'A note by id', mimeType: 'text/plain' },
    ({ uri, params }) => ({
      contents: [{ uri, mimeType: 'text/plain', text: `Note ${params.id}` }],
    }),
  );

  return server;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const server = labFixtureServer();
  if (process.argv.includes('--http')) {
    const listening = await server.listen({
      port: Number(process.argv[process.argv.indexOf('--http') + 1]) || 0,
    });
    process.stdout.write(`${listening.url}\n`);
    const stop = () => void listening.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } else {
    server.stdio();
  }
}
