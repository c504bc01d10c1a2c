// Hostile sealed states: thousands of mutations of valid requestState tokens (bit flips,
// truncation, extension, base64 variants, splices, relabelled keys, and untouched states presented
// to another tool, user, arguments, server or key ring) are all refused with -32602 before any
// handler runs. In process through endpoint.fetch (the real server code), then a sample over real
// HTTP. The long run is `npm run fuzz` (test/fuzz/hostile-state.fuzz.ts).
import { describe, expect, it } from 'vitest';
import { checkStateMutations, describeCounts } from './hostile/state-property.js';
import { targets, targetsOverHttp } from './hostile/targets.js';

describe('mutated and misplaced sealed states', () => {
  it('are all refused with -32602 and no handler runs (2,000 mutations, in process)', async () => {
    const counts = await checkStateMutations(targets(), 2000);
    console.log(`hostile states, in process: ${describeCounts(counts)}`);
    expect(counts.size).toBe(14);
  });

  describe('over real HTTP', () => {
    const { servers, urls } = targetsOverHttp();

    it('are all refused with -32602 and no handler runs (300 mutations)', async () => {
      const counts = await checkStateMutations(servers, 300, {
        send: (name) => (request) => fetch(new Request(urls.get(name)!, request)),
      });
      console.log(`hostile states, over HTTP: ${describeCounts(counts)}`);
    });
  });
});
