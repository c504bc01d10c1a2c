import { testClient } from '@parley/client/testing';
import { describe, expect, it } from 'vitest';
import { Bookings } from '../src/bookings.js';
import { createApp } from '../src/server.js';

// testClient calls the tools in this process, no port or child process. Every test runs on both
// eras: 2026-07-28 replays the handler round after round, the 2025 handshake keeps it waiting on
// the session. The same answers must give the same result on both.
describe.each(['modern', 'handshake'] as const)('book_table on the %s era', (era) => {
  it('asks for the party, then books one table', async () => {
    const bookings = new Bookings();
    const client = await testClient(createApp(bookings), {
      era,
      answers: { party: { guests: 4, date: '2030-05-01' } },
    });
    try {
      const result = await client.callTool('book_table');
      expect(result.content).toEqual([{ type: 'text', text: 'Table T-1 booked for 4 on 2030-05-01.' }]);
      expect(client.asked.map(({ key, round }) => [key, round])).toEqual([['party', 1]]);
      expect(bookings.list()).toEqual([{ id: 'T-1', guests: 4, date: '2030-05-01' }]);
    } finally {
      await client.close();
    }
  });

  it('books nothing when the person declines', async () => {
    const bookings = new Bookings();
    const client = await testClient(createApp(bookings), { era, answers: { party: { action: 'decline' } } });
    try {
      const result = await client.callTool('book_table');
      expect(result.content).toEqual([{ type: 'text', text: 'No table booked (decline).' }]);
      expect(bookings.list()).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
