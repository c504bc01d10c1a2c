import { connect, scripted } from '@parley/client';
import { describe, expect, it } from 'vitest';
import { Bookings } from '../src/bookings.js';
import { serveHttp } from '../src/http.js';
import { createApp } from '../src/server.js';

// The real endpoint on a free loopback port, called by a real client on each era.
describe.each(['modern', 'handshake'] as const)('over HTTP on the %s era', (era) => {
  it('books a table', async () => {
    const bookings = new Bookings();
    const listening = await serveHttp(createApp(bookings), { port: 0 });
    const client = await connect(listening.url, {
      ui: scripted({ party: { guests: 3, date: '2030-05-01' } }),
      era,
    });
    try {
      expect(client.era).toBe(era);
      const result = await client.callTool('book_table');
      expect(result.content).toEqual([{ type: 'text', text: 'Table T-1 booked for 3 on 2030-05-01.' }]);
      expect(bookings.list()).toHaveLength(1);
    } finally {
      await client.close();
      await listening.close();
    }
  });
});
