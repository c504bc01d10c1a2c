import { describe, expect, it } from 'vitest';
import type { CallView, LabEvent } from '../protocol.js';
import { KEPT_CALLS, LabState } from './lab-state.js';

const call = (id: string, status: CallView['status'] = 'done'): CallView => ({
  id,
  serverId: 's1',
  kind: 'tool',
  name: 'x',
  status,
  startedAt: 0,
  timeline: [],
});

describe('LabState', () => {
  it('announces each change and gives a snapshot of everything', () => {
    const state = new LabState();
    const events: LabEvent[] = [];
    state.subscribe((event) => events.push(event));
    state.putServer({ id: 's1', target: 'node x.js', eraChoice: 'auto', status: 'connecting' });
    state.updateServer('s1', { status: 'ready' });
    state.putCall(call('c1', 'running'));
    state.addTimeline('c1', { type: 'request', round: 1, at: 1 });
    state.updateCall('c1', { status: 'done' });
    expect(events.map((event) => event.type)).toEqual(['server', 'server', 'call', 'call', 'call']);
    const snapshot = state.snapshot();
    expect(snapshot).toMatchObject({
      type: 'snapshot',
      servers: [{ id: 's1', status: 'ready' }],
      calls: [{ id: 'c1', status: 'done', timeline: [{ type: 'request' }] }],
      questions: [],
    });
    state.removeServer('s1');
    expect(events.at(-1)).toEqual({ type: 'server-removed', serverId: 's1' });
  });

  it('ignores updates for what it does not hold', () => {
    const state = new LabState();
    const events: LabEvent[] = [];
    state.subscribe((event) => events.push(event));
    state.updateServer('nope', { status: 'ready' });
    state.updateCall('nope', { status: 'done' });
    state.addTimeline('nope', { type: 'request', round: 1, at: 1 });
    state.removeServer('nope');
    state.removeQuestion('nope');
    expect(events).toEqual([]);
  });

  it('forgets the oldest finished calls beyond the limit, never a running one', () => {
    const state = new LabState();
    state.putCall(call('running', 'running'));
    for (let index = 0; index < KEPT_CALLS + 5; index += 1) state.putCall(call(`c${index}`));
    const kept = state.snapshot().calls.map((item) => item.id);
    expect(kept).toHaveLength(KEPT_CALLS);
    expect(kept).toContain('running');
    expect(kept).not.toContain('c0');
    expect(kept.at(-1)).toBe(`c${KEPT_CALLS + 4}`);
  });
});
