import { describe, expect, it } from 'vitest';
import { SessionEvents } from './session-events.js';

const note = (n: number) =>
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });
const numbers = (sent: [string, string][] | undefined) =>
  sent?.map(([, data]) => (JSON.parse(data) as { params: { n: number } }).params.n);

describe('SessionEvents', () => {
  it('replays what a stream sent after the last event the client saw, and nothing of other streams', () => {
    const events = new SessionEvents();
    const a1 = events.store('a', note(1));
    events.store('b', note(2));
    const a3 = events.store('a', note(3));
    events.store('a', note(4));
    expect(events.streamOf(a1)).toBe('a');
    const replay = events.after(a1);
    expect(replay?.streamId).toBe('a');
    expect(numbers(replay?.events)).toEqual([3, 4]);
    expect(replay?.events[0]?.[0]).toBe(a3);
    expect(numbers(events.after(a3)?.events)).toEqual([4]);
  });

  it('never replays a priming event (empty data): it only gave the client an id to resume from', () => {
    const events = new SessionEvents();
    const primed = events.store('a', '');
    events.store('a', note(1));
    expect(numbers(events.after(primed)?.events)).toEqual([1]);
  });

  it('keeps at most maxEvents, dropping the oldest; an id that is gone is not found', () => {
    const events = new SessionEvents({ maxEvents: 3 });
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(events.store('a', note(n)));
    expect(events.streamOf(ids[0]!)).toBeUndefined();
    expect(events.streamOf(ids[1]!)).toBeUndefined();
    expect(numbers(events.after(ids[2]!)?.events)).toEqual([4, 5]);
    expect(events.after(ids[0]!)).toBeUndefined();
    expect(events.after('forged_1')).toBeUndefined();
  });

  it('keeps at most maxBytes of messages', () => {
    const size = note(1).length;
    const events = new SessionEvents({ maxBytes: size * 2 });
    const first = events.store('a', note(1));
    const second = events.store('a', note(2));
    const third = events.store('a', note(3));
    expect(events.streamOf(first)).toBeUndefined();
    expect(events.streamOf(second)).toBe('a');
    expect(events.streamOf(third)).toBe('a');
  });

  it('forgets events older than the retention, on the next store or prune', () => {
    let now = 1_000;
    const events = new SessionEvents({ retentionMs: 60_000, now: () => now });
    const old = events.store('a', note(1));
    now += 30_000;
    const recent = events.store('a', note(2));
    now += 40_000;
    events.prune();
    expect(events.streamOf(old)).toBeUndefined();
    expect(events.streamOf(recent)).toBe('a');
    expect(events.bytes).toBe(note(2).length);
    now += 60_000;
    events.prune();
    expect(events.bytes).toBe(0);
    expect(events.after(recent)).toBeUndefined();
  });

  it('finds an event only by the id it gave: the same number on another stream, or a made-up id, is unknown', () => {
    const events = new SessionEvents();
    const id = events.store('7', note(1));
    expect(id).toBe('7_1');
    expect(events.streamOf(id)).toBe('7');
    for (const wrong of ['8_1', '7_2', '7_', '_1', '7', '', '7_1.5', '7_-1', '7_0x1']) {
      expect(events.streamOf(wrong)).toBeUndefined();
      expect(events.after(wrong)).toBeUndefined();
    }
  });
});
