import { ask, type ParleyServer, ToolError } from '@parley/server';
import { addDays, type Deps, isoDate, reply, stopped } from './deps.js';

/**
 * `book_flight`: three rounds, each built from the answers before it (destination, then a date,
 * then a confirmation that quotes both). Declining or cancelling any round books nothing.
 */
export function registerBookFlight(server: ParleyServer, deps: Deps): void {
  server.tool(
    'book_flight',
    {
      title: 'Book a flight',
      description: 'Books a flight in three steps: where to, when, and a confirmation with the fare.',
    },
    async (_args, ctx) => {
      const user = deps.userOf(ctx);
      // The catalogue and the day are reads of changing data: once, so every round sees the same.
      const { destinations, today } = await ctx.once('catalogue', () => ({
        destinations: deps.store.destinations(),
        today: isoDate(deps.now()),
      }));

      const where = await ctx.elicit(
        'Where would you like to fly?',
        ask.choice(Object.fromEntries(destinations.map((d) => [d.code, `${d.city} (from €${d.fareEur})`])), {
          title: 'Destination',
        }),
        { key: 'destination' },
      );
      if (where.action !== 'accept') return stopped(where.action, 'No flight booked');
      const destination = destinations.find((d) => d.code === where.value)!;

      const when = await ctx.elicit(
        `When do you want to fly to ${destination.city}?`,
        ask.date({ title: 'Departure date', default: addDays(today, 14) }),
        { key: 'date' },
      );
      if (when.action !== 'accept') return stopped(when.action, 'No flight booked');
      if (when.value < today) {
        throw new ToolError(`No flight booked: ${when.value} is in the past; pick ${today} or later.`);
      }

      const confirm = await ctx.elicit(
        `Book ${destination.city} (${destination.code}) on ${when.value} for €${destination.fareEur}?`,
        ask.boolean({ title: 'Book this flight', default: true }),
        { key: 'confirm' },
      );
      if (confirm.action !== 'accept') return stopped(confirm.action, 'No flight booked');
      if (!confirm.value) return 'No flight booked: you chose not to book it.';

      const flight = await ctx.once('book', (key) =>
        deps.store.addFlight(user.name, destination.code, when.value, key),
      );
      return reply(
        `Flight #${flight.id} booked: ${flight.city} (${flight.destination}) on ${flight.date}, €${flight.fareEur}.`,
        { flight },
      );
    },
  );
}
