// callTool, getPrompt and readResource return a Call: the promise of the result, with the call's id
// and its events, so a host that runs several calls matches questions and events without guessing.
import { type CallEvent, connect, ParleyError } from '@parley/client';
import { describe, expect, it } from 'vitest';
import { stdioServer, watchfulUI } from './support.js';

// Keyed by message, which both eras show.
const ANSWERS = {
  'Your name?': { name: 'Bo' },
  'Favourite color?': { color: 'red' },
  'Step 1: your name?': { name: 'Al' },
  'Step 2: your color?': { color: 'blue' },
  'Who should I greet?': { name: 'Cy' },
  'PIN?': { pin: 1234 },
};

describe.each(['modern', 'handshake'] as const)('a Call on the %s era', (era) => {
  it('carries the id its questions and events carry, and replays its own events only', async () => {
    const { ui, stats } = watchfulUI(ANSWERS);
    const client = await connect(stdioServer(), { ui, era });
    try {
      const two = client.callTool('two_questions');
      const multi = client.callTool('multi_round');
      expect(two.id).not.toBe(multi.id);
      expect([two.call, two.method]).toEqual([{ kind: 'tool', name: 'two_questions' }, 'tools/call']);
      // Subscribed after callTool returned: the first request is replayed.
      const seen = new Map<number, CallEvent[]>([
        [two.id, []],
        [multi.id, []],
      ]);
      two.onEvent((event) => seen.get(two.id)!.push(event));
      multi.onEvent((event) => seen.get(multi.id)!.push(event));
      await Promise.all([two, multi]);

      for (const call of [two, multi]) {
        const events = seen.get(call.id)!;
        expect(events.every((event) => event.callId === call.id)).toBe(true);
        expect(events[0]).toMatchObject({ type: 'request', name: call.call.name });
        // On the handshake era the wire does not say which of two concurrent calls a pushed question
        // belongs to (the client picks the oldest), so only the modern era promises each its answers.
        expect(events.at(-1)).toMatchObject({ type: 'result' });
        if (era === 'modern') expect(events.some((event) => event.type === 'answers')).toBe(true);
      }
      for (const context of stats.contexts) {
        expect(context.callId).toBe(context.call.name === 'two_questions' ? two.id : multi.id);
      }
      // After the end, a new listener gets the whole story and nothing more.
      const late: CallEvent[] = [];
      two.onEvent((event) => late.push(event));
      expect(late).toEqual(seen.get(two.id));
    } finally {
      await client.close();
    }
  });
});

describe('a Call on the modern era', () => {
  it('is a handle for prompts and resources too', async () => {
    const { ui, stats } = watchfulUI(ANSWERS);
    const client = await connect(stdioServer(), { ui, era: 'modern' });
    try {
      const prompt = client.getPrompt('greeting');
      const read = client.readResource('secret://note');
      expect([prompt.method, read.method]).toEqual(['prompts/get', 'resources/read']);
      expect(read.call).toEqual({ kind: 'resource', name: 'secret://note' });
      const [greeting, note] = await Promise.all([prompt, read]);
      expect(greeting.messages[0]?.content).toMatchObject({ text: 'Hello Cy' });
      expect(note.contents[0]).toMatchObject({ text: 'note for pin 1234' });
      expect(stats.contexts.map((context) => [context.key, context.callId])).toEqual(
        expect.arrayContaining([
          ['who', prompt.id],
          ['pin', read.id],
        ]),
      );
    } finally {
      await client.close();
    }
  });

  it('ends its events with the error when the call fails, and stops a listener on request', async () => {
    const client = await connect(stdioServer(), { ui: watchfulUI({}).ui, era: 'modern' });
    try {
      const call = client.callTool('no_such_tool');
      const events: CallEvent[] = [];
      const stopped: CallEvent[] = [];
      call.onEvent((event) => events.push(event));
      const stop = call.onEvent((event) => stopped.push(event));
      stop();
      await expect(call).rejects.toBeInstanceOf(ParleyError);
      expect(events.map((event) => event.type)).toEqual(['request', 'error']);
      expect(stopped.map((event) => event.type)).toEqual(['request']);
    } finally {
      await client.close();
    }
  });
});
