import type { ParleyServer } from '@parley/server';
import { type Deps, reply } from './deps.js';

/** `list_bookings`: your orders and what the other tools booked for you; asks nothing. */
export function registerListBookings(server: ParleyServer, deps: Deps): void {
  server.tool(
    'list_bookings',
    {
      title: 'List my bookings',
      description: 'Lists your orders, booked returns, flights and scheduled deployments, newest first.',
      annotations: { readOnlyHint: true },
    },
    (_args, ctx) => {
      const user = deps.userOf(ctx);
      const returns = deps.store.returns(user.name);
      const flights = deps.store.flights(user.name);
      const deployments = deps.store.deployments(user.name);
      const orders = deps.store.orders.list(user.name);
      const lines = [
        ...orders.map((o) => `Order #${o.id}: ${o.product}, €${o.totalEur}, ${o.status}`),
        ...returns.map((r) => `Return #${r.id}: ${r.reason}, ${r.boxes} box(es), pickup ${r.pickupDate}`),
        ...flights.map((f) => `Flight #${f.id}: ${f.city} on ${f.date}, €${f.fareEur}`),
        ...deployments.map(
          (d) => `Deployment #${d.id}: ${d.service} ${d.version} to ${d.environment} at ${d.window}`,
        ),
      ];
      const text = lines.length > 0 ? lines.join('\n') : `${user.displayName} has no bookings yet.`;
      return reply(text, { orders, returns, flights, deployments });
    },
  );
}
