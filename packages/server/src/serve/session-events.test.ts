import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { SessionEvents } from './session-events.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});

async function replay(events: SessionEvents, after: string) {
  const sent: [string, unknown][] = [];
  const stream = await events.replayEventsAfter(after, {
    send: async (id, message) => {
      sent.push([id, (message as unknown as { params: { n: number } }).params.n]);
    },
  });
  return { stream, sent };
}

describe('SessionEvents', () => {
  it('replays what a stream sent after the last event the client saw, and nothing of other streams', async () => {
    const events = new SessionEvents();
    const a1 = await events.storeEvent('a', note(1));
    await events.storeEvent('b', note(2));
    const a3 = await events.storeEvent('a', note(3));
    await events.storeEvent('a', note(4));
    expect(await events.getStreamIdForEventId(a1)).toBe('a');
    const { stream, sent } = await replay(events, a1);
    expect(stream).toBe('a');
    expect(sent.map(([, n]) => n)).toEqual([3, 4]);
    expect(sent[0]![0]).toBe(a3);
    expect((await replay(events, a3)).sent.map(([, n]) => n)).toEqual([4]);
  });

  it('keeps at most maxEvents, dropping the oldest; an id that is gone is refused with what to do', async () => {
    const events = new SessionEvents({ maxEvents: 3 });
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await events.storeEvent('a', note(n)));
    expect(await events.getStreamIdForEventId(ids[0]!)).toBeUndefined();
    expect(await events.getStreamIdForEventId(ids[1]!)).toBeUndefined();
    expect((await replay(events, ids[2]!)).sent.map(([, n]) => n)).toEqual([4, 5]);
    await expect(replay(events, ids[0]!)).rejects.toThrow(/Last-Event-ID.*call again/);
    await expect(replay(events, 'forged_1')).rejects.toThrow(/Last-Event-ID/);
  });

  it('keeps at most maxBytes of messages', async () => {
    const size = JSON.stringify(note(1)).length;
    const events = new SessionEvents({ maxBytes: size * 2 });
    const first = await events.storeEvent('a', note(1));
    const second = await events.storeEvent('a', note(2));
    const third = await events.storeEvent('a', note(3));
    expect(await events.getStreamIdForEventId(first)).toBeUndefined();
    expect(await events.getStreamIdForEventId(second)).toBe('a');
    expect(await events.getStreamIdForEventId(third)).toBe('a');
  });

  it('forgets events older than the retention, on the next store or prune', async () => {
    let now = 1_000;
    const events = new SessionEvents({ retentionMs: 60_000, now: () => now });
    const old = await events.storeEvent('a', note(1));
    now += 30_000;
    const recent = await events.storeEvent('a', note(2));
    now += 40_000;
    events.prune();
    expect(await events.getStreamIdForEventId(old)).toBeUndefined();
    expect(await events.getStreamIdForEventId(recent)).toBe('a');
    expect(events.bytes).toBe(JSON.stringify(note(2)).length);
    now += 60_000;
    events.prune();
    expect(events.bytes).toBe(0);
    await expect(replay(events, recent)).rejects.toThrow(/call again/);
  });
});
