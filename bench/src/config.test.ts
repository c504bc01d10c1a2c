import { describe, expect, it } from 'vitest';
import { parseConfig, WORKLOADS } from './config.js';

const config = (argv: string[]) => {
  const parsed = parseConfig(argv);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.config;
};

describe('parseConfig', () => {
  it('runs every workload with five runs by default', () => {
    const full = config([]);
    expect(full.workloads).toEqual([...WORKLOADS]);
    expect(full.runs).toBe(5);
    expect(full.flowsInFlight).toBe(10_000);
    expect(full.pendingSessions * full.pendingPerSession).toBe(1000);
  });

  it('shortens everything with --quick', () => {
    const quick = config(['--quick']);
    const full = config([]);
    expect(quick.quick).toBe(true);
    expect(quick.runMs * quick.runs).toBeLessThan(full.runMs * full.runs);
    expect(quick.flowsInFlight).toBeLessThan(full.flowsInFlight);
  });

  it('picks workloads, runs, seconds and no profile', () => {
    const picked = config(['--only', 'a, c', '--runs', '2', '--seconds', '1.5', '--no-profile']);
    expect(picked.workloads).toEqual(['a', 'c']);
    expect(picked.runs).toBe(2);
    expect(picked.runMs).toBe(1500);
    expect(picked.profileMs).toBe(0);
    expect(config(['--only', 'h']).workloads).toEqual(['h']);
  });

  it('names the problem for input it cannot use', () => {
    expect(parseConfig(['--only', 'a,z'])).toEqual({ problem: expect.stringMatching(/Unknown workload z/) });
    expect(parseConfig(['--runs', '0'])).toEqual({ problem: expect.stringMatching(/--runs/) });
    expect(parseConfig(['--seconds', 'soon'])).toEqual({ problem: expect.stringMatching(/--seconds/) });
    expect(parseConfig(['--fast'])).toEqual({ problem: expect.stringMatching(/fast/) });
  });
});
