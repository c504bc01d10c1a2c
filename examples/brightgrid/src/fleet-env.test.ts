import { describe, expect, it } from 'vitest';
import { fleetFromEnv } from './fleet-env.js';

describe('fleetFromEnv', () => {
  it('shares nothing without REDIS_URL, and keeps the server default for links kept', async () => {
    const fleet = fleetFromEnv({});
    expect(fleet.flowStore).toBeUndefined();
    expect(fleet.keptLinksPerUser).toBeUndefined();
    await fleet.close();
  });

  it('reads the links one user may keep, and refuses what is not a whole number of 1 or more', () => {
    expect(fleetFromEnv({ BRIGHTGRID_KEPT_LINKS_PER_USER: '100000' }).keptLinksPerUser).toBe(100_000);
    for (const bad of ['0', '-3', '1.5', 'lots'])
      expect(() => fleetFromEnv({ BRIGHTGRID_KEPT_LINKS_PER_USER: bad })).toThrow(
        `BRIGHTGRID_KEPT_LINKS_PER_USER must be a whole number of 1 or more (got ${bad}).`,
      );
  });
});
