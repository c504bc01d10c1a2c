// Hostile sealed states: thousands of mutations of valid requestState tokens (bit flips,
// truncation, extension, base64 variants, splices, relabelled keys, and untouched states presented
// to another tool, user, arguments, server or key ring) are all refused with -32602 before any
// handler runs. In process through endpoint.fetch (the real server code), then a sample over real
// HTTP. The long run is `npm run fuzz` (test/fuzz/hostile-state.fuzz.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetName } from './hostile/state-corpus.js';
import { checkStateMutations, describeCounts } from './hostile/state-property.js';
import { authenticate, targets } from './hostile/targets.js';

describe('mutated and misplaced sealed states', () => {
  it('are all refused with -32602 and no handler runs (2,000 mutations, in process)', async () => {
    const counts = await checkStateMutations(targets(), 2000);
    console.log(`hostile states, in process: ${describeCounts(counts)}`);
    expect(counts.size).toBe(14);
  });

  describe('over real HTTP', () => {
    const servers = targets();
    const urls = new Map<TargetName, string>();
    const closers: (() => Promise<void>)[] = [];
    beforeAll(async () => {
      for (const [name, target] of Object.entries(servers) as [TargetName, (typeof servers)[TargetName]][]) {
        const listening = await target.server.listen({ port: 0, authenticate });
        urls.set(name, listening.url);
        closers.push(listening.close);
      }
    });
    afterAll(() => Promise.all(closers.map((close) => close())));

    it('are all refused with -32602 and no handler runs (300 mutations)', async () => {
      const counts = await checkStateMutations(servers, 300, {
        send: (name) => (request) => fetch(new Request(urls.get(name)!, request)),
      });
      console.log(`hostile states, over HTTP: ${describeCounts(counts)}`);
    });
  });
});
