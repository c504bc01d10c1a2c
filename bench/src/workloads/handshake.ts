/**
 * Workload (d): the 2025 handshake era, where the server asks over a live session
 * (`elicitation/create` pushed to the client) instead of ending the round. Measured with the
 * official SDK client pinned to the 2025 era, answering every question at once.
 */
import { createHistogram } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ServerKind } from '../servers/kinds.js';
import { SERVER_MAIN, type ServerProcess } from '../servers/spawn.js';
import { answerOf, resultText, TOOL } from '../survey.js';

export interface HandshakeResult {
  readonly server: ServerKind;
  readonly transport: 'stdio' | 'http';
  /** `cannot`: this server cannot ask a 2025-era client over this transport; `reason` says what happened. */
  readonly status: 'ok' | 'cannot';
  readonly reason?: string;
  readonly calls?: number;
  /** Latency of each leg of a call: call → first question, answer → next question, last answer → result. */
  readonly roundP50Ms?: number;
  readonly roundP99Ms?: number;
}

export interface HandshakeOptions {
  readonly questions: number;
  readonly durationMs: number;
  /** A call that takes longer than this counts as "cannot". */
  readonly callTimeoutMs: number;
}

const QUESTION_NUMBER = /^Question (\d+) of/;

/** The first sentence of a message (up to 160 characters), for a table cell. */
function shorten(message: string): string {
  const sentence = message.split(/(?<=[.:])\s/)[0] ?? message;
  return sentence.length > 160 ? `${sentence.slice(0, 159)}…` : sentence;
}

/** Connects a 2025-era SDK client whose elicitation handler answers at once and timestamps each leg. */
async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport) {
  const client = new Client(
    { name: 'parley-bench', version: '0.1.0' },
    { capabilities: { elicitation: {} } },
  );
  const marks: bigint[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    marks.push(process.hrtime.bigint());
    const match = QUESTION_NUMBER.exec(request.params.message);
    const index = match ? Number(match[1]) - 1 : -1;
    marks.push(process.hrtime.bigint());
    return { action: 'accept', content: { answer: answerOf(index) } };
  });
  await client.connect(transport);
  return { client, marks };
}

/** Measures one server over one transport; a server that cannot ask is reported, not thrown. */
export async function measureHandshake(
  server: ServerKind,
  transport: 'stdio' | 'http',
  options: HandshakeOptions,
  http?: ServerProcess,
): Promise<HandshakeResult> {
  const base = { server, transport };
  const wire =
    transport === 'stdio'
      ? new StdioClientTransport({ command: process.execPath, args: [SERVER_MAIN, server, 'stdio'] })
      : new StreamableHTTPClientTransport(new URL(http!.url));
  const { client, marks } = await connect(wire);
  const legs = createHistogram();
  const expected = resultText(Array.from({ length: options.questions }, (_, i) => answerOf(i)));
  let calls = 0;
  try {
    const deadline = Date.now() + options.durationMs;
    while (calls === 0 || Date.now() < deadline) {
      marks.length = 0;
      const started = process.hrtime.bigint();
      let text: unknown;
      try {
        const result = await client.callTool(
          { name: TOOL, arguments: { questions: options.questions } },
          { timeout: options.callTimeoutMs },
        );
        text = result.content[0]?.type === 'text' ? result.content[0].text : JSON.stringify(result);
      } catch (error) {
        return {
          ...base,
          status: 'cannot',
          reason: shorten(error instanceof Error ? error.message : String(error)),
        };
      }
      const ended = process.hrtime.bigint();
      if (text !== expected || marks.length !== 2 * options.questions) {
        return {
          ...base,
          status: 'cannot',
          reason: `asked ${marks.length / 2} of ${options.questions} questions; the call returned "${shorten(String(text))}"`,
        };
      }
      const points = [started, ...marks, ended];
      for (let i = 0; i + 1 < points.length; i += 2) {
        legs.record(Math.max(1, Number(points[i + 1]! - points[i]!)));
      }
      calls++;
    }
    return {
      ...base,
      status: 'ok',
      calls,
      roundP50Ms: legs.percentile(50) / 1e6,
      roundP99Ms: legs.percentile(99) / 1e6,
    };
  } finally {
    await client.close().catch(() => {});
  }
}
