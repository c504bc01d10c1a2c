import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { httpServerOptions, SERVER_HTTP_LIMITS } from './server-limits.js';
import { StreamConnections } from './stream-connections.js';

const socket = () => new EventEmitter();

describe('StreamConnections', () => {
  it('sets the cap, and raises it by two for each connection that held a stream until it closes', () => {
    const server = { maxConnections: 0 };
    const streams = new StreamConnections(server, { ...SERVER_HTTP_LIMITS, maxConnections: 10 });
    expect(server.maxConnections).toBe(10);
    const held = [socket(), socket(), socket()];
    for (const one of held) streams.hold(one);
    expect(streams.held).toBe(3);
    expect(server.maxConnections).toBe(16);
    // A connection that carries a second stream (keep-alive) is counted once.
    streams.hold(held[0]!);
    expect(server.maxConnections).toBe(16);
    held[1]!.emit('close');
    expect(server.maxConnections).toBe(14);
    held[0]!.emit('close');
    held[2]!.emit('close');
    expect(server.maxConnections).toBe(10);
    expect(streams.held).toBe(0);
  });

  it('makes room for maxStreams streams at most; more count against maxConnections', () => {
    const server = { maxConnections: 0 };
    const streams = new StreamConnections(server, {
      ...SERVER_HTTP_LIMITS,
      maxConnections: 10,
      maxStreams: 2,
    });
    for (let n = 0; n < 5; n++) streams.hold(socket());
    expect(streams.held).toBe(5);
    expect(server.maxConnections).toBe(14);
    const none = { maxConnections: 0 };
    new StreamConnections(none, { ...SERVER_HTTP_LIMITS, maxConnections: 10, maxStreams: 0 }).hold(socket());
    expect(none.maxConnections).toBe(10);
  });

  it('takes only a whole number of streams', () => {
    expect(() => httpServerOptions({ ...SERVER_HTTP_LIMITS, maxStreams: -1 })).toThrow(
      'HTTP limits: maxStreams must be 0 or a positive integer (got -1).',
    );
  });
});
