import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { ParleyError } from './errors.js';
import { translateError } from './translate-error.js';

const call = { kind: 'tool', name: 'book' } as const;

describe('translateError', () => {
  it('keeps a server error code and data, naming the server and the call', () => {
    const error = translateError(
      new ProtocolError(-32602, 'Unknown tool: book', { tool: 'book' }),
      'shop',
      call,
    );
    expect(error).toMatchObject({
      kind: 'server',
      code: -32602,
      data: { tool: 'book' },
      server: 'shop',
      call,
    });
    expect(error.message).toBe('shop answered with error -32602 during tool "book": Unknown tool: book');
  });

  it('calls invalid results a protocol violation by the server', () => {
    const error = translateError(
      new SdkError(SdkErrorCode.UnsupportedResultType, "Unsupported result type 'task'"),
      'shop',
      call,
    );
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(
      /^shop broke the MCP protocol during tool "book": Unsupported result type 'task'; this is a server bug/,
    );
  });

  it('maps timeouts and closed connections', () => {
    expect(translateError(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'), 'shop').kind).toBe(
      'timeout',
    );
    expect(
      translateError(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), 'shop').kind,
    ).toBe('connection');
    expect(translateError(new Error('spawn nope ENOENT'), 'shop').message).toBe(
      'The connection to shop failed: spawn nope ENOENT',
    );
  });

  it('passes a ParleyError through untouched', () => {
    const original = new ParleyError('unanswered', 'no answer');
    expect(translateError(original, 'shop')).toBe(original);
  });
});
