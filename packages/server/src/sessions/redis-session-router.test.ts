import { describe, expect, it } from 'vitest';
import { fromBase64, headersToPass, parseForwardMessage, toBase64 } from './forward-wire.js';
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

  it('ignore what is not one of them', () => {
    expect(parseForwardMessage('not json')).toBeUndefined();
    expect(parseForwardMessage('{"t":"req"}')).toBeUndefined();
    expect(parseForwardMessage('null')).toBeUndefined();
    expect(parseForwardMessage('{"t":"cancel","id":"x"}')).toEqual({ t: 'cancel', id: 'x' });
  });
});
