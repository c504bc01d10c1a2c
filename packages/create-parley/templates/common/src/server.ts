import { ask, createServer, type ParleyServer } from '@parley/server';
import { Bookings } from './bookings.js';

/**
 * The MCP server and its one tool, `book_table`: it asks the person for how many guests and which
 * day, then books the table. Start here: rename it, and change the tool into yours.
 */
export function createApp(bookings: Bookings = new Bookings()): ParleyServer {
  const server = createServer({ name: '%NAME%', version: '0.1.0' });

  server.tool(
    'book_table',
    { description: 'Book a table: asks for the party size and the day' },
    async (_args, ctx) => {
      const party = await ctx.elicit(
        'For how many guests, and on which day?',
        ask.form({
          guests: ask.integer({ title: 'Guests', min: 1, max: 8, default: 2 }),
          date: ask.date({ title: 'Day' }),
        }),
        { key: 'party' },
      );
      if (party.action !== 'accept') return `No table booked (${party.action}).`;

      // On the 2026-07-28 era this handler runs again from the top for every round. ctx.once runs the
      // booking once per call, and its key is the same in every round, so the booking system can
      // refuse a copy of the same round sent twice.
      const booking = await ctx.once('book', (key) => bookings.book(key, party.value));
      return `Table ${booking.id} booked for ${booking.guests} on ${booking.date}.`;
    },
  );

  return server;
}
