import { describe, expect, it } from 'vitest';
import { FaultWindows } from './fault-windows.js';

describe('FaultWindows', () => {
  it('stays open until the replica served again and the balancer had a few requests to settle', () => {
    const windows = new FaultWindows(3);
    expect(windows.current()).toBeUndefined();
    const window = windows.open('kill', 'r2');
    expect(windows.current()).toBe('kill');
    windows.served('r1'); // before the restart nothing counts
    windows.restarted(window);
    windows.served('r1');
    windows.served('r3');
    expect(window.servedAgainAt).toBeUndefined();
    windows.served('r2');
    expect(window.servedAgainAt).toBeDefined();
    windows.served('r1');
    windows.served('r3');
    expect(windows.current()).toBe('kill');
    windows.served('r1'); // the third request after r2 came back
    expect(windows.current()).toBeUndefined();
    expect(window.closedAt).toBeDefined();
  });

  it('names the first window still open', () => {
    const windows = new FaultWindows(1);
    const first = windows.open('rotation, r1', 'r1');
    windows.open('rotation, r2', 'r2');
    windows.restarted(first);
    windows.served('r1');
    windows.served('r1');
    windows.served('r1');
    expect(windows.current()).toBe('rotation, r2');
    expect(windows.all).toHaveLength(2);
  });
});
