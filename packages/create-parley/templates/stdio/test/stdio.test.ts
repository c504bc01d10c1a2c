import { fileURLToPath } from 'node:url';
import { connect, scripted } from '@parley/client';
import { describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

// The real thing: src/main.ts as a child process over stdio, as a host starts it.
describe.each(['modern', 'handshake'] as const)('over stdio on the %s era', (era) => {
  it('books a table', { timeout: 30_000 }, async () => {
    const ui = scripted({ party: { guests: 2, date: '2030-05-01' } });
    const client = await connect([process.execPath, '--import', 'tsx', main], { ui, era });
    try {
      expect(client.era).toBe(era);
      const result = await client.callTool('book_table');
      expect(result.content).toEqual([{ type: 'text', text: 'Table T-1 booked for 2 on 2030-05-01.' }]);
    } finally {
      await client.close();
    }
  });
});
