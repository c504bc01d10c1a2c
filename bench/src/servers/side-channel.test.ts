import { describe, expect, it } from 'vitest';
import { isCpuProfile } from '../profile/cpu-profile.js';
import { countRunning, sideChannel } from './side-channel.js';

const answer = (path: string) => sideChannel(new URL(path, 'http://127.0.0.1'));

describe('the side channel', () => {
  it('counts a handler as running until its work settles, even when it throws', async () => {
    let release!: () => void;
    const work = countRunning(() => new Promise<void>((resolve) => (release = resolve)));
    const failing = countRunning(async () => {
      throw new Error('handler failed');
    });
    await expect(failing).rejects.toThrow('handler failed');
    expect(JSON.parse(await answer('/stats')!).handlersRunning).toBe(1);
    release();
    await work;
    expect(JSON.parse(await answer('/stats')!).handlersRunning).toBe(0);
  });

  it('profiles only between start and stop, and refuses a second start', async () => {
    await answer('/profile/start?interval=100');
    await expect(answer('/profile/start')).rejects.toThrow(/already running/);
    const profile: unknown = JSON.parse(await answer('/profile/stop')!);
    expect(isCpuProfile(profile)).toBe(true);
    await expect(answer('/profile/stop')).rejects.toThrow(/No profile is running/);
  });

  it('leaves every other path to the server', () => {
    expect(answer('/mcp')).toBeUndefined();
    expect(answer('/statistics')).toBeUndefined();
  });
});
