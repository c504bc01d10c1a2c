// What real third-party clients answer (FastMCP and the Python SDK; issue 14, findings 2, 5, 9):
// null for an empty optional field, objects where a value belongs, required fields with defaults left
// out, URL capabilities declared on a 2025-06-18 session.
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureEnv } from './wire/fixture-env.js';
import {
  connectHandshake,
  type HandshakeConnection,
  type HandshakeTarget,
  textOf,
} from './wire/handshake-client.js';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';
import type { Transport } from './wire/start-modern.js';

const SETTINGS: FixtureEnv = { PARLEY_FIXTURE_MAX_TRIES: '3' };
const messageOf = (request: { params?: Record<string, unknown> }) => String(request.params?.message);

describe.each([['stdio'], ['http']] as [Transport][])(
  'third-party clients on the 2025 eras over %s',
  (transport) => {
    let fixture: HttpFixture | undefined;
    let answers: unknown[] = [];
    let loose: HandshakeConnection;
    let oldest: HandshakeConnection;

    const target = async (): Promise<HandshakeTarget> => {
      if (transport === 'stdio') return { stdio: SETTINGS };
      fixture ??= await startHttpFixture(SETTINGS);
      return { url: fixture.url, user: 'alice' };
    };

    beforeAll(async () => {
      const answer = (_request: ElicitRequest) => answers.shift() as ElicitResult;
      loose = await connectHandshake(await target(), {
        capabilities: { elicitation: { form: {} } },
        answer,
        unchecked: true,
      });
      oldest = await connectHandshake(await target(), {
        capabilities: { elicitation: { form: {}, url: {} } },
        protocolVersion: '2025-06-18',
        answer: () => ({ action: 'accept', content: { value: 'ada@example.com' } }),
      });
    });
    afterAll(async () => {
      await Promise.all([loose, oldest].map((connection) => connection?.close().catch(() => {})));
      await fixture?.stop();
    });

    it('reads null for an optional field as left empty, and fills defaults the client did not', async () => {
      answers = [{ action: 'accept', content: { name: 'Ada', nickname: null } }];
      const mark = loose.received.length;
      const result = await loose.callTool('sign_up');
      expect(textOf(result)).toBe('{"name":"Ada","age":30,"newsletter":true}');
      // Asked once: no second question under a changed message.
      expect(loose.received.slice(mark).map(messageOf)).toEqual(['Sign up']);
    });

    it('asks again with the reason when a field holds an object, and does not end in an internal error', async () => {
      answers = [
        { action: 'accept', content: { name: { first: 'Ada' } } },
        { action: 'accept', content: { name: 'Ada', age: 36, newsletter: false } },
      ];
      const mark = loose.received.length;
      const result = await loose.callTool('sign_up');
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe('{"name":"Ada","age":36,"newsletter":false}');
      const messages = loose.received.slice(mark).map(messageOf);
      expect(messages).toHaveLength(2);
      expect(messages[1]).toMatch(/^That answer could not be used: name: .+\n\nSign up$/);
    });

    it('never sends URL mode on a 2025-06-18 session, whatever the client declared', async () => {
      const mark = oldest.received.length;
      expect(textOf(await oldest.callTool('contact'))).toBe('Contact email: ada@example.com');
      const signIn = await oldest.callTool('sign_in');
      expect(signIn.isError).toBe(true);
      expect(oldest.received.slice(mark).map((request) => request.params?.mode)).toEqual(['form']);
    });
  },
);
