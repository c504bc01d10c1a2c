import { testClient } from '@parley/client/testing';
import { ask, createServer } from '@parley/server';
import { describe, expect, it } from 'vitest';
import { shirtShop } from './shirt-shop.js';

// The ladder, tested in-process: testClient plays the person on the server's question pages, so
// a tool is tested with clients that cannot show forms exactly as with those that can.

function textOf(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

const ANSWERS = { size: { value: 'M' }, count: { count: 1 }, confirm: { value: true } };

describe.each(['modern', 'handshake'] as const)(
  'order_shirt for every kind of client, on the %s era',
  (era) => {
    it('a client that shows only URLs: each question is answered on the server’s page', async () => {
      const client = await testClient(shirtShop(), {
        era,
        modes: { form: false, url: true },
        answers: ANSWERS,
      });
      try {
        expect(textOf(await client.callTool('order_shirt'))).toBe('Ordered 1 × M.');
        expect(client.asked.map(({ key, mode }) => [key, mode])).toEqual([
          ['size', 'url'],
          ['count', 'url'],
          ['confirm', 'url'],
        ]);
        expect(client.asked[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/parley\/questions\/[\w-]{43}$/);
      } finally {
        await client.close();
      }
    });

    it('a client that cannot be asked: the result links the page, and the same call goes on', async () => {
      const client = await testClient(shirtShop(), {
        era,
        modes: { form: false, url: false },
        answers: ANSWERS,
      });
      try {
        let result = await client.callTool('order_shirt');
        const keys: string[] = [];
        // One page per question: answer it, make the same call again, until the tool is done.
        while (textOf(result).includes('Answer here:')) {
          keys.push(
            ...((result._meta?.['dev.parley/pages'] as { key: string }[]) ?? []).map((page) => page.key),
          );
          expect(await client.answerPages(result)).toBe(1);
          result = await client.callTool('order_shirt');
        }
        expect(textOf(result)).toBe('Ordered 1 × M.');
        expect(keys).toEqual(['size', 'count', 'confirm']);
        expect(client.asked).toEqual([]);
      } finally {
        await client.close();
      }
    });
  },
);

describe('testClient answers roots', () => {
  it('declares roots and lists the ones it is given', async () => {
    const server = createServer({ name: 'files', version: '1.0.0' });
    server.tool('where', { description: 'Names the roots' }, async (_args, ctx) => {
      const roots = await ctx.roots();
      return roots.map((root) => root.name ?? root.uri).join(', ');
    });
    for (const era of ['modern', 'handshake'] as const) {
      const client = await testClient(server, {
        era,
        roots: [{ uri: 'file:///work/shop', name: 'shop' }, { uri: 'file:///work/docs' }],
      });
      try {
        expect(textOf(await client.callTool('where'))).toBe('shop, file:///work/docs');
      } finally {
        await client.close();
      }
    }
  });

  it('asks a secret on the page: the person types it there, the handler gets it', async () => {
    const server = createServer({ name: 'keys', version: '1.0.0' });
    server.tool('link', { description: 'Links an account' }, async (_args, ctx) => {
      const key = await ctx.elicit('Paste your API key', ask.secret({ title: 'API key' }), { key: 'key' });
      return key.action === 'accept' ? `Linked (${key.value.length} characters).` : 'Not linked.';
    });
    const client = await testClient(server, { answers: { key: { value: 'sk-test-123456' } } });
    try {
      expect(textOf(await client.callTool('link'))).toBe('Linked (14 characters).');
      expect(client.asked[0]?.mode).toBe('url');
    } finally {
      await client.close();
    }
  });
});
