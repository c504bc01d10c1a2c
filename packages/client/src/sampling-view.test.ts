import { describe, expect, it } from 'vitest';
import { samplingView } from './sampling-view.js';

describe('samplingView', () => {
  it('keeps text, the system prompt, the token limit, model hints and temperature', () => {
    expect(
      samplingView({
        messages: [
          { role: 'user', content: { type: 'text', text: 'What is 2+2?' } },
          { role: 'assistant', content: [{ type: 'text', text: 'Four.' }] },
        ],
        systemPrompt: 'Be brief.',
        maxTokens: 50,
        modelPreferences: { hints: [{ name: 'claude' }, { other: 1 }] },
        temperature: 0.2,
      }),
    ).toEqual({
      messages: [
        { role: 'user', parts: [{ kind: 'text', text: 'What is 2+2?' }] },
        { role: 'assistant', parts: [{ kind: 'text', text: 'Four.' }] },
      ],
      systemPrompt: 'Be brief.',
      maxTokens: 50,
      modelHints: ['claude'],
      temperature: 0.2,
    });
  });

  it('stands a placeholder line in for image, audio, tool use and anything unknown', () => {
    const view = samplingView({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', mimeType: 'image/png', data: 'A'.repeat(4096) },
            { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
            { type: 'tool_use', name: 'get_weather', id: '1', input: {} },
            { type: 'tool_result', toolUseId: '1', content: [] },
            { type: 'hologram' },
            'not an object',
          ],
        },
      ],
      maxTokens: 10,
    });
    expect(view.messages[0]?.parts.map((part) => [part.kind, part.text])).toEqual([
      ['placeholder', '[image image/png, 3 KB: not shown]'],
      ['placeholder', '[audio audio/wav, 3 bytes: not shown]'],
      ['placeholder', '[tool use "get_weather": not shown]'],
      ['placeholder', '[tool result: not shown]'],
      ['placeholder', '["hologram" content: not shown]'],
      ['placeholder', '[content the server sent in an unknown shape: not shown]'],
    ]);
  });

  it('reads a request in a broken shape without throwing', () => {
    expect(samplingView(null)).toEqual({ messages: [] });
    expect(samplingView({ messages: [42], maxTokens: '9' })).toEqual({
      messages: [{ role: 'unknown role', parts: [expect.objectContaining({ kind: 'placeholder' })] }],
    });
  });
});
