import { ProtocolError } from '@modelcontextprotocol/client';
import { ToolError } from '@parley/server';
import { describe, expect, it } from 'vitest';
import { readLiveMessage, resumeOnWire } from './live-wire.js';
import { fromWireError, toWireError } from './resume-errors.js';

const HANDLE = `gw1-1.${'a'.repeat(43)}`;
const resume = { handle: HANDLE, owner: undefined, round: 1, answers: undefined, holdMs: 25_000 };
const message = (fields: Record<string, unknown>) =>
  JSON.stringify({ t: 'resume', id: 'm1', from: 'gw2-1', until: Date.now() + 1_000, ...fields });

describe('the messages gateway replicas resume held calls with', () => {
  it('carry a resume and a step whole', () => {
    const answers = { q1: { result: { action: 'accept', content: { boxes: 2 } } } };
    const read = readLiveMessage(
      message({ resume: resumeOnWire({ ...resume, owner: 'alice', answers }) }),
      1e6,
    );
    expect(read).toEqual({
      message: expect.objectContaining({ t: 'resume', resume: { ...resume, owner: 'alice', answers } }),
    });
    expect(readLiveMessage(message({ resume: resumeOnWire(resume) }), 1e6)).toMatchObject({
      message: { resume: { owner: undefined, answers: undefined } },
    });
    const step = {
      kind: 'ask',
      requests: { q1: { method: 'elicitation/create', params: { message: 'Boxes?' } } },
      via: { kind: 'live', handle: HANDLE, round: 2, revision: '2025-11-25' },
    };
    expect(readLiveMessage(JSON.stringify({ t: 'step', id: 'm1', from: 'gw1-1', step }), 1e6)).toEqual({
      message: { t: 'step', id: 'm1', from: 'gw1-1', step },
    });
  });

  it('drop what is malformed, oversized or not one of theirs, saying why but never what it said', () => {
    const dropped = (text: string, max = 1e6) => {
      const read = readLiveMessage(text, max);
      return 'dropped' in read ? read.dropped : undefined;
    };
    expect(dropped('x'.repeat(101), 100)).toBe('a message of 101 characters (at most 100)');
    expect(dropped('{not json')).toBe('a message that is not JSON');
    expect(dropped('[1]')).toBe('a message that is not an object');
    expect(dropped(message({ id: 'a b', resume: resumeOnWire(resume) }))).toBe(
      'a message without a valid id',
    );
    expect(dropped(message({ from: 'x.y', resume: resumeOnWire(resume) }))).toBe(
      'a message without a valid sender',
    );
    expect(dropped(message({ resume: { ...resumeOnWire(resume), handle: 'gw1.short' } }))).toBe(
      'a resume without a valid handle',
    );
    expect(dropped(message({ resume: { ...resumeOnWire(resume), holdMs: 1e9 } }))).toBe(
      'a resume with a hold outside 0 to 120000 ms',
    );
    expect(dropped(message({ resume: { ...resumeOnWire(resume), round: -1 } }))).toBe(
      'a resume with an invalid round',
    );
    expect(
      dropped(message({ resume: { ...resumeOnWire(resume), answers: { q1: { result: 'yes' } } } })),
    ).toBe('a resume with an answer that is not { result } or { error }');
    expect(dropped(message({ until: 'soon', resume: resumeOnWire(resume) }))).toBe(
      'a resume without a deadline',
    );
    expect(dropped(message({ t: 'shutdown' }))).toBe('a message of an unknown type');
    const step = (value: unknown) => JSON.stringify({ t: 'step', id: 'm1', from: 'gw1-1', step: value });
    expect(dropped(step({ kind: 'task', taskId: 't' }))).toBe('a step of an unknown kind');
    expect(dropped(step({ kind: 'wait', via: { kind: 'state', state: 'x' } }))).toBe(
      'a step that does not name a held call',
    );
    expect(
      dropped(step({ kind: 'wait', via: { kind: 'live', handle: HANDLE, round: 1, revision: '<b>' } })),
    ).toBe('a step that does not name a held call');
    expect(
      dropped(
        step({
          kind: 'ask',
          requests: { q1: { method: 7 } },
          via: { kind: 'live', handle: HANDLE, round: 1, revision: '2025-11-25' },
        }),
      ),
    ).toBe('a step with a question that is not { method, params }');
    expect(dropped(JSON.stringify({ t: 'error', id: 'm1', from: 'gw1-1', error: { kind: 'boom' } }))).toBe(
      'an error reply that is not { kind, message }',
    );
  });

  it('carry the error a resume ended with, kept apart by kind', () => {
    const tool = fromWireError(
      toWireError(new ToolError('The upstream desk did not answer in time.')),
      'gw1',
    );
    expect(tool).toBeInstanceOf(ToolError);
    expect(tool.message).toBe('The upstream desk did not answer in time.');
    const protocol = fromWireError(
      toWireError(new ProtocolError(-32602, 'Bad boxes', { field: 'boxes' })),
      'gw1',
    );
    expect(protocol).toBeInstanceOf(ProtocolError);
    expect(protocol).toMatchObject({ code: -32602, message: 'Bad boxes', data: { field: 'boxes' } });
    const other = fromWireError(toWireError(new Error('socket hang up\nat line 2')), 'gw1');
    expect(other).toBeInstanceOf(ToolError);
    expect(other.message).toBe(
      'The upstream call held by gateway replica gw1 failed (socket hang up at line 2); call again to start over.',
    );
  });
});
