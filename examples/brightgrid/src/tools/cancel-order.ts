import { type ParleyServer, ToolError } from '@parley/server';
import * as z from 'zod/v4';
import { type Deps, reply, stopped } from './deps.js';

/**
 * `cancel_order`: destructive, so the person confirms on a page of Brightgrid, signed in as the
 * user who made the call (`ctx.confirm(..., { proof: 'page' })`): an "accept" an app or its agent
 * sends by itself never cancels anything.
 */
export function registerCancelOrder(server: ParleyServer, deps: Deps): void {
  server.tool(
    'cancel_order',
    {
      title: 'Cancel an order',
      description:
        'Cancels one of your open orders and refunds it. You confirm on a page of Brightgrid, signed in as yourself.',
      annotations: { destructiveHint: true, idempotentHint: true },
      input: z.object({
        order: z.number().int().min(1000).max(9999).describe('The order number, e.g. 1001'),
      }),
    },
    async ({ order: id }, ctx) => {
      const user = deps.userOf(ctx);
      const order = deps.store.orders.get(user.name, id);
      if (!order) throw new ToolError(`You have no order #${id}; list_bookings shows your orders.`);
      if (order.status === 'cancelled') return `Order #${id} was already cancelled.`;
      const sure = await ctx.confirm(
        `Cancel order #${id} (${order.product}, €${order.totalEur})? It is refunded, and this cannot be undone.`,
        { proof: 'page', title: 'Cancel this order?', key: 'confirm_cancel' },
      );
      if (sure.action !== 'accept') return stopped(sure.action, `Order #${id} not cancelled`);
      if (!sure.confirmed) return `Order #${id} not cancelled: you did not confirm.`;
      const cancelled = await ctx.once('cancel', (key) => deps.store.orders.cancel(user.name, id, key));
      return reply(`Order #${id} cancelled; €${cancelled.totalEur} will be refunded.`, { order: cancelled });
    },
  );
}
