import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ServerProcess } from '../servers/spawn.js';
import { measureHeldResponses, measureStdioPending } from './pending-floors.js';

// The measurers spawn real server processes, which run the built bench (bench/dist).
const main = fileURLToPath(new URL('../../dist/servers/main.js', import.meta.url));
const HELD = 200;
const WARMUP = 10;

describe('the floors under a pending 2025-era question', () => {
  it('finds the bench built (npm run build) so it can spawn the servers', () => {
    expect(existsSync(main), `${main} is missing: run npm run build first`).toBe(true);
  });

  it('counts the heap of responses a bare node:http server holds open', async () => {
    const floor = await ServerProcess.start('floor', { main });
    try {
      const cost = await measureHeldResponses(floor, HELD, WARMUP);
      expect(cost.before.handlersRunning).toBe(WARMUP);
      expect(cost.after.handlersRunning).toBe(WARMUP + HELD);
      expect(cost.heapKbEach).toBeGreaterThan(0.5);
      expect(cost.heapKbEach).toBeLessThan(100);
    } finally {
      await floor.stop();
    }
  });

  it.each(['sdk-push', 'parley'] as const)(
    'counts the heap of questions the %s server holds pending over stdio',
    async (kind) => {
      const cost = await measureStdioPending(kind, HELD, { warmup: WARMUP, main });
      expect(cost.before.handlersRunning).toBe(WARMUP);
      expect(cost.after.handlersRunning).toBe(WARMUP + HELD);
      expect(cost.heapKbEach).toBeGreaterThan(0.5);
      expect(cost.heapKbEach).toBeLessThan(100);
    },
  );
});
