// Handshake-era faults (2025-11-25, questions sent over the session): a client that goes away while
// a question is pending frees it, a question nobody answers ends the call with a clear error, and
// many pending questions stay bounded in memory and are all released. Real server processes, the
// official SDK client, over HTTP sessions and stdio. The server's own count (server.pendingQuestions)
// is the witness.
import {
  type CallToolResult,
  Client,
  type ElicitResult,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { PENDING_FIXTURE, StderrLines, startPendingHttp } from './faults/pending-process.js';

/** A 2025-11-25 SDK client whose person answers only when `answer` says so (never, by default). */
function sdkClient(answer: () => Promise<ElicitResult> = () => new Promise(() => {})): Client {
  const client = new Client(
    { name: 'parley-fault-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, supportedProtocolVersions: ['2025-11-25'] },
  );
  client.setRequestHandler('elicitation/create', () => answer());
  return client;
}

const textOf = (result: CallToolResult) => (result.content[0] as { text?: string } | undefined)?.text;

describe('a 2025 session over HTTP', () => {
  it('frees a pending question when the client disconnects (no DELETE, the connection just goes)', async () => {
    const server = await startPendingHttp();
    try {
      const client = sdkClient();
      const transport = new StreamableHTTPClientTransport(new URL(server.url));
      await client.connect(transport);
      const call = client.callTool({ name: 'ask_and_wait' }).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      await server.stderr.waitFor('pending=1');
      expect((await server.stats()).pending).toBe(1);

      const closedAt = server.stderr.lines.length;
      await transport.close();
      expect(await call).toMatch(/closed/i);
      await server.stderr.waitFor('pending=0', undefined, closedAt);
      expect((await server.stats()).pending).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('ends the call with a clear error when nobody answers within questionTimeoutMs, and frees the question', async () => {
    const server = await startPendingHttp(300);
    try {
      const client = sdkClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const result = (await client.callTool({ name: 'ask_and_wait' })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'No answer came within 300 ms, so the call was stopped. Call the tool again.',
      );
      expect((await server.stats()).pending).toBe(0);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('holds 1,000 calls in flight on one session with the default limits, delivers every answer at once, and releases what is abandoned', async () => {
    const server = await startPendingHttp();
    try {
      const before = await server.stats();
      const answers: ((result: ElicitResult) => void)[] = [];
      const client = sdkClient(() => new Promise((resolve) => answers.push(resolve)));
      const transport = new StreamableHTTPClientTransport(new URL(server.url));
      await client.connect(transport);
      const start = (calls: number) =>
        Array.from({ length: calls }, (_, i) =>
          client.callTool({ name: 'ask_and_wait', arguments: { i } }, { timeout: 120_000 }).then(
            (result) => textOf(result as CallToolResult),
            (error: Error) => error.message,
          ),
        );
      const answered = start(1000);
      await server.stderr.waitFor('pending=1000', 180_000);
      const held = await server.stats();
      expect(held.pending).toBe(1000);
      // Each pending question costs the server a few kilobytes: 1,000 of them stay well under 64 MB.
      expect(held.heapUsed - before.heapUsed).toBeLessThan(64 * 1024 * 1024);

      // Every person answers at once: each answer comes on a connection of its own while the 1,000
      // streams stay open, and every one is delivered (the default cap of 1,024 connections used to
      // drop 977 of them).
      for (const answer of answers.splice(0)) answer({ action: 'accept', content: { value: 'ok' } });
      const results = await Promise.all(answered);
      expect(results.filter((text) => text === 'Noted: ok')).toHaveLength(1000);
      const afterAnswers = await server.stats();
      expect(afterAnswers.pending).toBe(0);

      // More wait (on the connections the answers left open); then the client goes away and every
      // one is freed.
      const abandoned = start(200);
      await server.stderr.waitFor('pending=200', 60_000, server.stderr.lines.lastIndexOf('pending=0'));
      const closedAt = server.stderr.lines.length;
      await transport.close();
      await server.stderr.waitFor('pending=0', undefined, closedAt);
      expect((await Promise.all(abandoned)).filter((text) => /closed/i.test(text ?? ''))).toHaveLength(200);
      const after = await server.stats();
      expect(after.pending).toBe(0);
      // Released, not just forgotten: live memory falls back to near where it started.
      expect(after.heapUsed - before.heapUsed).toBeLessThan(16 * 1024 * 1024);
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      console.log(
        `1,000 calls in flight on one session: heap +${mb(held.heapUsed - before.heapUsed)}, RSS +${mb(held.rss - before.rss)}, ` +
          `${held.connections} connections; all answered at once: ${after.peakConnections} connections at most; ` +
          `after release: heap +${mb(after.heapUsed - before.heapUsed)}`,
      );
    } finally {
      await server.stop();
    }
    // About 30 s on a quiet 2-core machine; 2,000 connections take much longer on a loaded one.
  }, 300_000);
});

describe('a 2025 connection over stdio', () => {
  function stdioClient(env: Record<string, string> = {}) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [PENDING_FIXTURE],
      env: { ...(process.env as Record<string, string>), PENDING_TRANSPORT: 'stdio', ...env },
      stderr: 'pipe',
    });
    const stderr = new StderrLines(transport.stderr as unknown as NodeJS.ReadableStream);
    return { transport, stderr };
  }

  it('frees a pending question when the client disconnects (stdin closes)', async () => {
    const { transport, stderr } = stdioClient();
    const client = sdkClient();
    await client.connect(transport);
    const call = client.callTool({ name: 'ask_and_wait' }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await stderr.waitFor('pending=1');
    await client.close();
    expect(await call).toMatch(/closed/i);
    await stderr.waitFor('pending=0 after disconnect');
  });

  it('ends the call with a clear error when nobody answers within questionTimeoutMs', async () => {
    const { transport, stderr } = stdioClient({ PENDING_TIMEOUT_MS: '300' });
    const client = sdkClient();
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: 'ask_and_wait' })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'No answer came within 300 ms, so the call was stopped. Call the tool again.',
      );
      await stderr.waitFor('pending=0', undefined, stderr.lines.indexOf('pending=1'));
    } finally {
      await client.close();
    }
  });
});
