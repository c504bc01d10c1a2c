import { describe, expect, it } from 'vitest';
import { scavengesOf } from './gc-trace.js';

// Shortened from real `node --trace-gc-nvp` output: every line carries many more key=value pairs.
const TRACE = [
  '{"url":"http://127.0.0.1:4000/mcp"}',
  '[1:0x1]       62 ms: pause=0.9 mutator=23.0 gc=s reduce_memory=0 scavenge=0.88 promoted=1000 new_space_survived=2000 nodes_promoted=0',
  '[1:0x1]      120 ms: pause=2.1 mutator=40.0 gc=s reduce_memory=0 scavenge=2.00 promoted=3000 new_space_survived=4000 nodes_promoted=0',
  '[1:0x1]      300 ms: pause=9.5 mutator=80.0 gc=mc reduce_memory=0 promoted=99999 new_space_survived=99999',
].join('\n');

describe('scavengesOf', () => {
  it('averages the scavenge lines and skips mark-compacts and other output', () => {
    const summary = scavengesOf(TRACE);
    expect(summary).toEqual({ scavenges: 2, promotedBytes: 2000, survivedBytes: 3000, pauseMs: 1.5 });
  });

  it('is undefined for output with no scavenge', () => {
    expect(scavengesOf('{"url":"x"}\n')).toBeUndefined();
  });
});
