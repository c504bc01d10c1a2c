import { describe, expect, it } from 'vitest';
import { EventStreamParser, EventTooLargeError, type ServerSentEvent } from './event-stream.js';

// The parser as the HTML standard's "interpreting an event stream" reads a stream, fed as a
// connection may cut it: at any byte.

function parse(chunks: readonly (string | Uint8Array)[], maxChars = 1_000) {
  const events: ServerSentEvent[] = [];
  const retries: number[] = [];
  const parser = new EventStreamParser(
    { event: (event) => events.push(event), retry: (ms) => retries.push(ms) },
    maxChars,
  );
  const encoder = new TextEncoder();
  for (const chunk of chunks) parser.chunk(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
  return { events, retries, parser };
}

/** Every way of cutting `text` in two. */
function cuts(text: string): string[][] {
  return Array.from({ length: text.length + 1 }, (_, at) => [text.slice(0, at), text.slice(at)]);
}

describe('EventStreamParser', () => {
  it('reads events whose lines end with LF, CRLF or CR, however the stream is cut', () => {
    const text = 'event: message\ndata: one\r\n\r\ndata: two\r\rdata: three\n\n';
    for (const chunks of cuts(text)) {
      expect(parse(chunks).events).toEqual([
        { event: 'message', data: 'one' },
        { event: 'message', data: 'two' },
        { event: 'message', data: 'three' },
      ]);
    }
  });

  it('joins data lines, keeps a field without a space, and drops comments and unknown fields', () => {
    const { events } = parse([': hello\ndata:a\ndata:  b\nbogus: 1\ndata\n\n']);
    expect(events).toEqual([{ event: 'message', data: 'a\n b\n' }]);
  });

  it('names the event type, dispatches none without data, and resets the type after each event', () => {
    const { events } = parse(['event: other\ndata: x\n\nevent: lonely\n\ndata: y\n\n']);
    expect(events).toEqual([
      { event: 'other', data: 'x' },
      { event: 'message', data: 'y' },
    ]);
  });

  it('keeps the last event id across events and bodies, ignoring one with NUL, and an empty data line counts', () => {
    const { events, parser } = parse(['id: e1\ndata: \n\n', 'id: bad\0id\ndata: z\n\n']);
    expect(events).toEqual([
      { event: 'message', data: '' },
      { event: 'message', data: 'z' },
    ]);
    expect(parser.lastEventId).toBe('e1');
    parser.reset();
    parser.chunk(new TextEncoder().encode('id: e2\n\n'));
    expect(parser.lastEventId).toBe('e2');
  });

  it('takes a retry of digits only', () => {
    expect(parse(['retry: 250\nretry: 1.5\nretry: soon\n\n']).retries).toEqual([250]);
  });

  it('decodes UTF-8 cut inside a character, and drops a byte order mark at the start', () => {
    const bytes = new TextEncoder().encode('\uFEFFdata: grüße 🙂\n\n');
    for (let at = 0; at <= bytes.length; at++) {
      expect(parse([bytes.subarray(0, at), bytes.subarray(at)]).events).toEqual([
        { event: 'message', data: 'grüße 🙂' },
      ]);
    }
  });

  it('drops an event its body did not finish when reset', () => {
    const { events, parser } = parse(['data: half']);
    parser.reset();
    parser.chunk(new TextEncoder().encode('data: whole\n\n'));
    expect(events).toEqual([{ event: 'message', data: 'whole' }]);
  });

  it('refuses a line or an event longer than the cap, and throws what the sink throws', () => {
    expect(() => parse([`data: ${'x'.repeat(60)}`], 50)).toThrow(EventTooLargeError);
    expect(() => parse(['data: 0123456789\n'.repeat(5)], 50)).toThrow(
      'the upstream sent an event of more than 50 characters',
    );
    // Many small events in one chunk are no long event.
    expect(parse(['data: 0123456789\n\n'.repeat(20)], 50).events).toHaveLength(20);
    const parser = new EventStreamParser(
      {
        event: () => {
          throw new Error('sink refused');
        },
        retry: () => {},
      },
      50,
    );
    expect(() => parser.chunk(new TextEncoder().encode('data: x\n\n'))).toThrow('sink refused');
  });
});
