// The server's half of a cleared default: a Parley server reads a `parley-lab` host's answers
// through that host's profile (it pre-fills every default), so an optional field the person
// cleared reaches the tool empty, on both eras. Driven by Parley's client over real stdio, with a
// UI that pre-fills as the lab does; the same answer under the client library's plain name (no
// profile) gets the default back from the server.
import { connect, type ElicitationUI } from '@parley/client';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SERVER } from './helpers/processes.js';

/** A host that showed the form pre-filled; the person cleared the note and kept one box. */
const clearedNote: ElicitationUI = {
  modes: { form: true, url: false },
  defaults: 'prefilled',
  async form() {
    return { action: 'accept', content: { boxes: 1 } };
  },
  async url() {
    return { action: 'decline' };
  },
};

async function resultAs(name: string, era: 'modern' | 'handshake'): Promise<string> {
  const client = await connect([process.execPath, FIXTURE_SERVER], {
    ui: clearedNote,
    era,
    clientInfo: { name, version: '0.1.0' },
  });
  try {
    const result = await client.callTool('cleared_default');
    return ((result.content as { text?: string }[] | undefined) ?? []).map((block) => block.text).join('');
  } finally {
    await client.close();
  }
}

describe.each(['modern', 'handshake'] as const)('a cleared optional default on the %s era', (era) => {
  it('reaches the tool empty from a parley-lab host', async () => {
    expect(await resultAs('parley-lab', era)).toBe('cleared_default: accept {"boxes":1}');
  });

  it('is filled by the server for a host no profile knows to pre-fill', async () => {
    expect(await resultAs('parley', era)).toBe(
      'cleared_default: accept {"note":"Leave at the door","boxes":1}',
    );
  });
});
