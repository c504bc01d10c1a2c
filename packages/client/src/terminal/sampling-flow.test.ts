import { describe, expect, it } from 'vitest';
import { samplingLines } from './sampling-flow.js';

describe('samplingLines', () => {
  it('shows the system prompt, each message by role, placeholders and the limits, all inert', () => {
    expect(
      samplingLines({
        systemPrompt: 'Be brief.\x1b]0;OWNED\x07',
        messages: [
          { role: 'user', content: { type: 'text', text: 'Line one\n\x1b[2Jline two' } },
          { role: 'assistant\n◇  Parley', content: { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' } },
        ],
        maxTokens: 20,
        temperature: 0.5,
        modelPreferences: { hints: [{ name: 'sonnet\u202e' }] },
      }),
    ).toEqual([
      'System prompt:',
      '  Be brief.␛]0;OWNED␇',
      'Messages (2):',
      '  user:',
      '    Line one',
      '    ␛[2Jline two',
      '  assistant␊◇  Parley:',
      '    [audio audio/wav, 3 bytes: not shown]',
      'Reply: at most 20 tokens · temperature 0.5 · model hints: sonnet<U+202E>',
    ]);
  });

  it('says when the server gave no token limit', () => {
    expect(samplingLines({ messages: [] }).at(-1)).toBe('Reply: no token limit given');
  });
});
