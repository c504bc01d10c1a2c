import { ParleyError } from '@parley/client';
import { testClient } from '@parley/client/testing';
import { describe, expect, it } from 'vitest';
import { shirtShop } from './shirt-shop.js';

/** The text of a tool result's first block. */
function textOf(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

// Every test runs on both eras: 2026-07-28 replays the handler on each round, the 2025 handshake
// keeps it waiting on the session. The same answers must give the same result on both.
describe.each(['modern', 'handshake'] as const)('order_shirt on the %s era', (era) => {
  it('accepts every answer, asking again for a count over the stock', async () => {
    const client = await testClient(shirtShop(), {
      era,
      answers: {
        size: { value: 'L' },
        count: [{ count: 4 }, { count: 2 }], // only 2 L left: the first answer is refused
        confirm: { value: true },
      },
    });
    try {
      expect(client.era).toBe(era);
      const result = await client.callTool('order_shirt');
      expect(textOf(result)).toBe('Ordered 2 × L.');

      expect(client.asked.map(({ key, round }) => [key, round])).toEqual([
        ['size', 1],
        ['count', 2],
        ['count', 3],
        ['confirm', 4],
      ]);
      expect(client.asked[2]?.message).toContain('Only 2 left in size L');
      expect(client.asked[3]?.message).toBe('Order 2 × L?');
    } finally {
      await client.close();
    }
  });

  it('declines the size: the tool stops after one question', async () => {
    const client = await testClient(shirtShop(), { era, answers: { size: { action: 'decline' } } });
    try {
      expect(textOf(await client.callTool('order_shirt'))).toBe('No size chosen, so no order.');
      expect(client.asked).toHaveLength(1);
      expect(client.asked[0]?.answer).toEqual({ action: 'decline' });
    } finally {
      await client.close();
    }
  });

  it('cancels at the count, in the second round', async () => {
    const client = await testClient(shirtShop(), {
      era,
      answers: { size: { value: 'S' }, count: { action: 'cancel' } },
    });
    try {
      expect(textOf(await client.callTool('order_shirt'))).toBe('No order (cancel).');
      expect(client.asked.map(({ key, round }) => [key, round])).toEqual([
        ['size', 1],
        ['count', 2],
      ]);
    } finally {
      await client.close();
    }
  });

  it('answers from a function that sees each question', async () => {
    const client = await testClient(shirtShop(), {
      era,
      answers: (_request, context) => {
        if (context.key === 'size') return { value: 'M' };
        if (context.key === 'count') return { count: 1 };
        return { action: 'decline' }; // the confirmation: declined
      },
    });
    try {
      expect(textOf(await client.callTool('order_shirt'))).toBe('Order not placed.');
      expect(client.asked.map((question) => question.message)).toEqual([
        'Which size?',
        'How many shirts?',
        'Order 1 × M?',
      ]);
    } finally {
      await client.close();
    }
  });

  it('ends a call whose question has no answer with an error naming it', async () => {
    const client = await testClient(shirtShop(), { era, answers: { size: { value: 'XL' } } });
    try {
      const failure = await client.callTool('order_shirt').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ParleyError);
      expect((failure as ParleyError).kind).toBe('unanswered');
      expect((failure as ParleyError).message).toContain('"count"');
    } finally {
      await client.close();
    }
  });
});
