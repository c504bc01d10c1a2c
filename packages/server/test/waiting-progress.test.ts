// A person who takes their time (issue 26): while a 2025-era question waits, a call that carries a
// progressToken gets notifications/progress, so a client that resets its timeout on progress keeps
// the call past its own timeout. Real server processes (the fault fixture, reminding every 250 ms
// here instead of 20 s), the official SDK client with a 2 s request timeout, a person answering
// after 4.5 s, over HTTP sessions and stdio. (The TypeScript SDK v1 client with its 60 s default and
// a person who answers after 75 s, against Brightgrid, is in interop/test/patient-person.test.ts.)
import {
  type CallToolResult,
  Client,
  type ElicitResult,
  type Progress,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SETTLE_TIMEOUT_MS } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_FIXTURE, StderrLines, startPendingHttp } from './faults/pending-process.js';

// Reminders 8 to a client timeout: a busy machine may delay one by well over a second before the
// client gives up.
const REMIND_MS = '250';
const CLIENT_TIMEOUT_MS = 2_000;
const PERSON_TAKES_MS = 4_500;

const textOf = (result: CallToolResult) => (result.content[0] as { text?: string } | undefined)?.text;

/** A 2025-11-25 client whose person answers after `PERSON_TAKES_MS`. */
function patientClient(): Client {
  const client = new Client(
    { name: 'patient-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, supportedProtocolVersions: ['2025-11-25'] },
  );
  client.setRequestHandler(
    'elicitation/create',
    () =>
      new Promise<ElicitResult>((resolve) =>
        setTimeout(() => resolve({ action: 'accept', content: { value: 'ok' } }), PERSON_TAKES_MS),
      ),
  );
  return client;
}

/** Calls the fixture's tool with a short timeout; `track` asks for progress (a progressToken). */
async function call(client: Client, track: boolean) {
  const progress: Progress[] = [];
  const started = Date.now();
  const outcome = await client
    .callTool(
      { name: 'ask_and_wait' },
      {
        timeout: CLIENT_TIMEOUT_MS,
        ...(track && { resetTimeoutOnProgress: true, onprogress: (p: Progress) => progress.push(p) }),
      },
    )
    .then(
      (result) => textOf(result as CallToolResult),
      (error: Error) => `error: ${error.message}`,
    );
  return { outcome, progress, tookMs: Date.now() - started };
}

describe.each(['http', 'stdio'] as const)('a person who takes their time, over %s', (transport) => {
  let http: Awaited<ReturnType<typeof startPendingHttp>> | undefined;
  let stdioStderr: StderrLines | undefined;
  let client: Client;

  beforeAll(async () => {
    client = patientClient();
    if (transport === 'http') {
      http = await startPendingHttp(undefined, { PENDING_PROGRESS_MS: REMIND_MS });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    } else {
      const stdio = new StdioClientTransport({
        command: process.execPath,
        args: [PENDING_FIXTURE],
        env: {
          ...(process.env as Record<string, string>),
          PENDING_TRANSPORT: 'stdio',
          PENDING_PROGRESS_MS: REMIND_MS,
        },
        stderr: 'pipe',
      });
      stdioStderr = new StderrLines(stdio.stderr as unknown as NodeJS.ReadableStream);
      await client.connect(stdio);
    }
  });
  afterAll(async () => {
    await client?.close();
    await http?.stop();
  });

  it('keeps a call with a progressToken alive past the client timeout with "Waiting for your answer"', async () => {
    const { outcome, progress, tookMs } = await call(client, true);
    expect(outcome).toBe('Noted: ok');
    expect(tookMs).toBeGreaterThan(PERSON_TAKES_MS);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((p) => p.message === 'Waiting for your answer')).toBe(true);
    const values = progress.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
  });

  it('sends nothing to a call without a progressToken: the client gives up at its own timeout', async () => {
    const { outcome, progress } = await call(client, false);
    expect(outcome).toMatch(/error: .*timed out/i);
    expect(progress).toEqual([]);
    // The client's timeout cancels the call (notifications/cancelled): logged at info with its reason.
    const lines = () => (http?.stderr ?? stdioStderr!).lines;
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    while (!lines().some((line) => line.startsWith('log info: ') && /cancelled/.test(line))) {
      if (Date.now() > deadline) throw new Error(`no cancellation logged:\n${lines().join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const logged = lines().find((line) => /cancelled/.test(line))!;
    expect(logged).toMatch(
      /^log info: Tool ask_and_wait was cancelled while a question waited: .*timed out/i,
    );
    expect(lines().filter((line) => line.startsWith('log error'))).toEqual([]);
  });
});
