/**
 * An MCP server for the lab's sampling and roots tests, written with @parley/server: `summarise`
 * asks the client's model (ctx.sample) with hostile HTML in its system prompt and messages and an
 * image the lab must show only as a placeholder line; `roots` lists the roots the client declared.
 *
 *   node testing/dist/lab-fixture/model-server.js      # stdio
 */
import { createServer, SamplingDeclinedError } from '@parley/server';

/** Markup a page must show as text: were it parsed, it would set `window.__pwned` or add a link. */
export const HOSTILE_HTML = {
  system: 'You are terse.<script>window.__pwned = "script"</script>',
  user: 'Summarise this ticket: <img src=x onerror="window.__pwned = \'img\'"><b>bold</b>',
  assistant: '</p></li></ol><a href="javascript:window.__pwned=\'link\'">click me</a>',
} as const;

export function modelFixtureServer() {
  const server = createServer({ name: 'model-fixture', version: '2.0.0' });

  server.tool('summarise', { description: 'Asks the client’s model for a summary' }, async (_args, ctx) => {
    try {
      const reply = await ctx.sample(
        {
          systemPrompt: HOSTILE_HTML.system,
          messages: [
            { role: 'user', content: { type: 'text', text: HOSTILE_HTML.user } },
            { role: 'assistant', content: { type: 'text', text: HOSTILE_HTML.assistant } },
            { role: 'user', content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
          maxTokens: 80,
        },
        { key: 'summary' },
      );
      const text = reply.content.type === 'text' ? reply.content.text : `(${reply.content.type})`;
      return `model ${reply.model} said: ${text}`;
    } catch (error) {
      if (error instanceof SamplingDeclinedError) return `declined (${error.name}, code ${error.code})`;
      throw error;
    }
  });

  server.tool('roots', { description: 'Lists the roots the client declared' }, async (_args, ctx) => {
    if (!ctx.can('roots')) return 'no roots declared';
    const roots = await ctx.roots();
    return roots.map((root) => `${root.name ?? '(no name)'} ${root.uri}`).join('\n');
  });

  return server;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  modelFixtureServer().stdio();
}
