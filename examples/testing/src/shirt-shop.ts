import { ask, createServer, type ParleyServer } from '@parley/server';
import * as z from 'zod/v4';

/** Shirts in stock per size. */
const STOCK: Readonly<Record<string, number>> = { S: 5, M: 5, L: 2, XL: 0 };

/**
 * A shop with one tool that asks over several rounds: the size, then how many (the form allows 1
 * to 5, but only what is in stock is accepted: an answer over the stock is asked again with the
 * reason), then a confirmation. Each question has a key, so a test can answer it by name.
 */
export function shirtShop(): ParleyServer {
  const server = createServer({ name: 'shirt-shop', version: '1.0.0' });
  server.tool('order_shirt', { description: 'Order a shirt' }, async (_args, ctx) => {
    const size = await ctx.elicit('Which size?', ask.choice(['S', 'M', 'L', 'XL']), { key: 'size' });
    if (size.action === 'cancel') return 'Order cancelled.';
    if (size.action === 'decline') return 'No size chosen, so no order.';

    const inStock = STOCK[size.value] ?? 0;
    const howMany = z
      .object({ count: z.int().min(1).max(5).describe('How many') })
      .refine(({ count }) => count <= inStock, { message: `Only ${inStock} left in size ${size.value}` });
    const count = await ctx.elicit('How many shirts?', howMany, { key: 'count' });
    if (count.action !== 'accept') return `No order (${count.action}).`;

    const confirm = await ctx.elicit(
      `Order ${count.value.count} × ${size.value}?`,
      ask.boolean({ title: 'Confirm' }),
      { key: 'confirm' },
    );
    if (confirm.action !== 'accept' || !confirm.value) return 'Order not placed.';
    return `Ordered ${count.value.count} × ${size.value}.`;
  });
  return server;
}
