import { describe, expect, it } from 'vitest';
import { fromBase64, headersToPass, readForwardMessage, toBase64 } from './forward-wire.js';
import { RedisSessionRouter } from './redis-session-router.js';

describe('RedisSessionRouter without an ioredis client', () => {
  it('names the fix instead of failing on first use', () => {
    expect(() => new RedisSessionRouter(undefined as never)).toThrow(
      'RedisSessionRouter needs an ioredis client (got undefined): npm install ioredis, then new RedisSessionRouter(new Redis(process.env.REDIS_URL))',
    );
  });
});

describe('the messages replicas pass a request with', () => {
  it('drop connection headers and keep the rest, Host and credentials included', () => {
    const headers = new Headers({
      host: 'shop.example',
      authorization: 'Bearer t',
      'mcp-session-id': 's-1',
      connection: 'keep-alive',
      'content-length': '12',
      'transfer-encoding': 'chunked',
    });
    expect(Object.fromEntries(headersToPass(headers))).toEqual({
      host: 'shop.example',
      authorization: 'Bearer t',
      'mcp-session-id': 's-1',
    });
  });

  it('carry bytes whole, a character split across chunks included', () => {
    const bytes = new TextEncoder().encode('données ✓');
    const [first, second] = [bytes.slice(0, 3), bytes.slice(3)];
    const back = [fromBase64(toBase64(first)), fromBase64(toBase64(second))];
    expect(new TextDecoder().decode(new Uint8Array([...back[0]!, ...back[1]!]))).toBe('données ✓');
  });

  it('are read strictly: anything that is not exactly one of them is dropped, with why', () => {
    const read = (value: unknown) => readForwardMessage(JSON.stringify(value), 10_000);
    const request = {
      t: 'req',
      id: 'm1',
      from: 'r1-1',
      method: 'POST',
      url: 'http://127.0.0.1:4000/mcp',
      headers: [['authorization', 'Bearer t']],
      body: toBase64(new TextEncoder().encode('{}')),
      until: 5,
    };
    expect(read(request)).toEqual({ message: request });
    expect(readForwardMessage('not json', 100)).toEqual({ dropped: 'a message that is not JSON' });
    expect(read(null)).toEqual({ dropped: 'a message that is not an object' });
    expect(read({ t: 'req' })).toEqual({ dropped: 'a message without an id or a sender' });
    expect(read({ ...request, method: 'PUT' })).toEqual({
      dropped: 'a request whose method is not GET, POST or DELETE',
    });
    expect(read({ ...request, url: 'not a url' })).toEqual({ dropped: 'a request without a valid URL' });
    expect(read({ ...request, headers: [['x-a', 'one\r\nx-b: two']] })).toEqual({
      dropped: 'a request whose headers are not name and value pairs',
    });
    expect(read({ ...request, body: '<html>' })).toEqual({ dropped: 'a request whose body is not base64' });
    expect(read({ ...request, until: '5' })).toEqual({ dropped: 'a request without a deadline' });
    expect(read({ t: 'cancel', id: 'c1', from: 'r1-1', req: 'm1', until: 5 })).toEqual({
      message: { t: 'cancel', id: 'c1', from: 'r1-1', req: 'm1', until: 5 },
    });
    expect(read({ t: 'head', id: 'm1', from: 'r2-1', status: 101, headers: [], hasBody: false })).toEqual({
      dropped: 'a response head without a valid status',
    });
    expect(read({ t: 'data', id: 'm1', from: 'r2-1', seq: -1, chunk: '' })).toEqual({
      dropped: 'a part of a response without a count or base64 bytes',
    });
    expect(read({ t: 'fail', id: 'm1', from: 'r2-1', message: 'x'.repeat(5_000) })).toEqual({
      message: { t: 'fail', id: 'm1', from: 'r2-1', message: 'x'.repeat(2_000) },
    });
    expect(read({ t: 'push', id: 'm1', from: 'r2-1' })).toEqual({ dropped: 'a message of an unknown type' });
    expect(readForwardMessage(JSON.stringify(request), 50)).toEqual({
      dropped: expect.stringMatching(/^a message of \d+ characters \(at most 50\)$/),
    });
  });
});

describe('RedisSessionRouter options', () => {
  const redis = { get() {}, set() {}, eval() {} } as never;
  it('refuse a name that cannot travel on the bus, and a wait past five minutes', () => {
    expect(() => new RedisSessionRouter(redis, { name: 'r.1' })).toThrow(
      'RedisSessionRouter name "r.1" is not valid: use 1 to 32 letters, digits, "_" and "-" (e.g. "r1").',
    );
    expect(() => new RedisSessionRouter(redis, { answerTimeoutMs: 400_000 })).toThrow(
      'RedisSessionRouter answerTimeoutMs must be 0 to 300000 (got 400000).',
    );
  });

  it('will not attach to a server without shared keys, and names the fix', () => {
    const saved = process.env.PARLEY_STATE_KEYS;
    delete process.env.PARLEY_STATE_KEYS;
    try {
      const host = { serve: async () => new Response(), sessions: () => [], idleMs: 1000 };
      expect(() => new RedisSessionRouter(redis).attach(host)).toThrow(
        /this server has none.*Set stateKeys \(createServer\(\{ state: \{ keys \} \}\)\) or PARLEY_STATE_KEYS to the same value on every replica/,
      );
    } finally {
      if (saved !== undefined) process.env.PARLEY_STATE_KEYS = saved;
    }
  });
});
