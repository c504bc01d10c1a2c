// The capability examples of the README (results, progress and logs, completions, subscriptions,
// caching hints, tasks), as a test runs them (packages/server/test/capability-examples.test.ts).
import {
  ask,
  content,
  createServer,
  jsonSchema,
  message,
  type ParleyServer,
  promptResult,
  resourceResult,
  structuredResult,
  toolErrorResult,
  toolResult,
} from '@parley/server';
import * as z from 'zod/v4';

/** A 1×1 PNG. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

// #region results
/** Text, images, audio, embedded resources and links; structured output; tool errors. */
export function addResults(server: ParleyServer, lookup: (city: string) => Promise<number>): void {
  server.tool('report', { description: 'Returns text, an image and resources' }, () =>
    toolResult(
      'Your report:', // a string is a text block
      content.image(png, 'image/png'), // bytes (or base64 text); content.audio(wav, 'audio/wav') likewise
      content.resource({ uri: 'report://latest', mimeType: 'application/json', text: '{"total":3}' }),
      content.resourceLink('report://archive', { name: 'archive' }), // a link, nothing embedded
    ),
  );

  // structuredContent is checked against `output` before it is sent; the text block defaults to its JSON.
  server.tool(
    'weather',
    { input: z.object({ city: z.string() }), output: z.object({ celsius: z.number() }) },
    async ({ city }) => structuredResult({ celsius: await lookup(city) }),
  );

  // A failure the model can act on: `isError: true` (throwing a ToolError does the same).
  server.tool('find_order', { input: z.object({ id: z.string() }) }, ({ id }) =>
    toolErrorResult(`No order ${id}.`),
  );

  // Plain JSON Schema (2020-12) where zod cannot say it: listed exactly as written, arguments checked.
  server.tool(
    'tag',
    {
      input: jsonSchema<{ tag: string }>({
        type: 'object',
        properties: { tag: { type: 'string', pattern: '^[a-z]+$' } },
        required: ['tag'],
        additionalProperties: false,
      }),
    },
    ({ tag }) => `Tagged ${tag}.`,
  );

  server.prompt('describe_image', { description: 'A prompt with an image' }, () =>
    promptResult(message.user(content.image(png, 'image/png')), 'Describe the image above.'),
  );

  server.resource('logo://small', { name: 'logo', mimeType: 'image/png' }, ({ uri }) =>
    resourceResult({ uri, mimeType: 'image/png', blob: png }),
  );
}
// #endregion results

// #region progress-logs
/** Logs and reports progress before each of three questions: each notification reaches the client once. */
export function addImport(server: ParleyServer): void {
  server.tool(
    'import_rows',
    { description: 'Imports three batches, asking before each' },
    async (_args, ctx) => {
      await ctx.log('info', 'Import started');
      for (const batch of [1, 2, 3]) {
        await ctx.progress(batch - 1, 3, `Batch ${batch}`); // sent only when the call carried a progressToken
        const go = await ctx.elicit(`Import batch ${batch}?`, ask.boolean({ title: 'Import?' }), {
          key: `batch${batch}`,
        });
        if (go.action !== 'accept' || !go.value) return `Stopped before batch ${batch}.`;
        await ctx.log('debug', `Batch ${batch} imported`);
      }
      await ctx.progress(3, 3, 'Done');
      return 'Imported 3 batches.';
    },
  );
}
// #endregion progress-logs

// #region completions
/** Suggestions for a prompt's arguments and a resource template's variables (`completion/complete`). */
export function addCompletions(server: ParleyServer): void {
  const cities = ['Paris', 'Parma', 'Porto', 'Prague'];
  server.prompt(
    'plan_trip',
    {
      args: z.object({ from: z.string(), to: z.string() }),
      complete: {
        from: (typed) => cities.filter((city) => city.startsWith(typed)),
        // The other arguments already filled in come along: never suggest going where you are.
        to: (typed, { arguments: filled }) =>
          cities.filter((city) => city.startsWith(typed) && city !== filled.from),
      },
    },
    ({ from, to }) => promptResult(`Plan a trip from ${from} to ${to}.`),
  );

  server.resource(
    'orders://{id}',
    {
      name: 'order',
      complete: { id: (typed) => ['1001', '1002', '2001'].filter((id) => id.startsWith(typed)) },
    },
    ({ uri, params }) => resourceResult({ uri, text: `Order ${params.id}` }),
  );
}
// #endregion completions

// #region subscriptions
/** List changes and resource updates reach the clients that asked for them. */
export function addSubscriptions(server: ParleyServer): void {
  let stock = 10;
  server.resource('shop://stock', { name: 'stock', mimeType: 'text/plain' }, ({ uri }) =>
    resourceResult({ uri, text: `${stock} in stock` }),
  );
  server.tool('sell_one', { description: 'Sells one item' }, () => {
    stock -= 1;
    server.notifyResourceUpdated('shop://stock'); // subscribers of shop://stock hear resources/updated
    return `Sold one; ${stock} left.`;
  });
  server.tool('open_returns', { description: 'Adds the returns tool' }, () => {
    // Registering while serving: listeners hear notifications/tools/list_changed.
    server.tool('return_one', { description: 'Takes one item back' }, () => {
      stock += 1;
      server.notifyResourceUpdated('shop://stock');
      return `Returned one; ${stock} in stock.`;
    });
    return 'Returns are open.';
  });
}
// #endregion subscriptions

// #region caching
/** Lists that clients may keep for a minute; everything else keeps the default (do not cache). */
export function cachingServer(): ParleyServer {
  return createServer({
    name: 'catalogue',
    version: '1.0.0',
    cacheHints: {
      'tools/list': { ttlMs: 60_000, cacheScope: 'public' },
      'resources/list': { ttlMs: 60_000, cacheScope: 'private' },
    },
  });
}
// #endregion caching

// #region tasks
/** Tools that run as tasks; their questions reach the person through the task, with the same ctx.elicit. */
export function addTasks(server: ParleyServer): void {
  server.tool(
    'confirm_delete',
    { input: z.object({ filename: z.string() }), task: 'optional' }, // a task from the start, when the client can
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit(`Delete ${filename}?`, ask.boolean({ title: 'Delete?' }), {
        key: 'confirm',
      });
      return answer.action === 'accept' && answer.value ? `Deleted ${filename}.` : `Kept ${filename}.`;
    },
  );

  // Ask in rounds first, then go on as a task:
  server.tool('build_report', { task: { support: 'required', start: 'manual' } }, async (_args, ctx) => {
    const name = await ctx.elicit('Who is the report for?', ask.text(), { key: 'for' });
    await ctx.runAsTask(); // the client gets its task id here
    return `Report for ${name.action === 'accept' ? name.value : 'you'} is ready.`;
  });
}
// #endregion tasks
