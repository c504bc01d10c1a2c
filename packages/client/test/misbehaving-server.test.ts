import { connect, type ParleyClient, ParleyError, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLog, fixture } from './support.js';

const textOf = (result: { content?: unknown }): string =>
  ((result.content as { text?: string }[] | undefined) ?? []).map((block) => block.text ?? '').join('');

describe('a server that breaks the protocol', () => {
  const log = eventLog();
  let client: ParleyClient;

  beforeAll(async () => {
    const ui = scripted({}, { modes: { form: true, url: false } });
    client = await connect(['node', fixture('rogue-server.mjs')], { ui, onEvent: log.onEvent });
  });
  afterAll(async () => {
    await client.close();
  });

  it('is named in the error for an unknown resultType', async () => {
    const failure = await client.callTool('task_result').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ParleyError);
    expect(failure).toMatchObject({ kind: 'protocol', server: 'rogue' });
    expect((failure as Error).message).toMatch(
      /^rogue broke the MCP protocol during tool "task_result": Unsupported result type 'task'/,
    );
  });

  it('is named in the error for an input request method MCP does not define, and nothing is asked', async () => {
    const failure = await client.callTool('bogus_request').catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'protocol', server: 'rogue', data: { method: 'bogus/ask' } });
    expect((failure as Error).message).toBe(
      'rogue asked for "bogus/ask" under the key "weird" during tool "bogus_request"; MCP input requests are elicitation/create, sampling/createMessage and roots/list, so the call was stopped (a server bug: report it to its authors)',
    );
  });

  it('gets cancel for a form outside the subset, and for a mode the host did not declare', async () => {
    expect(JSON.parse(textOf(await client.callTool('nested_form')))).toEqual({ home: { action: 'cancel' } });
    expect(JSON.parse(textOf(await client.callTool('url_anyway')))).toEqual({ link: { action: 'cancel' } });
    const reasons = log.events.flatMap((event) =>
      event.type === 'skipped' ? [`${event.key}: ${event.reason}`] : [],
    );
    expect(reasons).toEqual([
      expect.stringMatching(
        /^home: the form is outside the MCP requestedSchema subset: \/properties\/address/,
      ),
      'link: this host does not open URLs (it declared no URL mode)',
    ]);
  });

  it('has a result without resultType read as complete, not retried', async () => {
    expect(textOf(await client.callTool('no_result_type'))).toBe('plain');
  });

  it('receives the _meta envelope with exactly the declared capabilities', async () => {
    const echoed = JSON.parse(textOf(await client.callTool('echo', { a: 1 })));
    expect(echoed).toEqual({
      name: 'echo',
      arguments: { a: 1 },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'parley', version: '0.1.0' },
        'io.modelcontextprotocol/clientCapabilities': {
          elicitation: { form: {} },
          extensions: { 'dev.parley/resume': {} },
        },
      },
    });
  });
});
