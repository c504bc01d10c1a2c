// A person who takes their time (issue 26), with the client most 2025-era hosts run: the TypeScript
// SDK v1 Client, its defaults (a 60 s request timeout) plus `resetTimeoutOnProgress`, books
// Brightgrid's return (`book_return`) with a person who answers the form after 75 s, over Streamable
// HTTP and stdio. Brightgrid runs with Parley's defaults: a reminder every 20 s while the question
// waits keeps the call alive. (The mechanism with short timeouts is in packages/server/test.)
//
// SDK v1 sends a progressToken only when the call also passes `onprogress` (typescript-sdk#2076):
// `resetTimeoutOnProgress` alone sends no token, and a server may not send progress without one.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BRIGHTGRID = fileURLToPath(new URL('../../examples/brightgrid/dist/', import.meta.url));
const PERSON_TAKES_MS = 75_000;

/** Brightgrid over HTTP as a real process: its MCP URL and alice's API token. */
async function startBrightgrid(
  dataDir: string,
): Promise<{ url: string; token: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(BRIGHTGRID, 'http.js')], {
    env: { ...process.env, BRIGHTGRID_DATA: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const found: { url?: string; token?: string } = {};
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`Brightgrid exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      found.url ??= /^Brightgrid: (http:\/\/\S+\/mcp)$/.exec(line)?.[1];
      found.token ??= /^Token for alice: Authorization: Bearer (\S+)$/.exec(line)?.[1];
      if (found.url && found.token) resolve();
    });
  });
  return { url: found.url!, token: found.token!, child };
}

/** Fills the return form the way a person would: the defaults offered, the first reason, one box. */
function fillReturnForm(schema: { properties: Record<string, Record<string, unknown>> }) {
  const content: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.default !== undefined) content[name] = field.default;
  }
  const reason = schema.properties.reason!;
  content.reason =
    (reason.enum as string[] | undefined)?.[0] ??
    (reason.oneOf as { const: string }[] | undefined)?.[0]?.const;
  content.boxes = 1;
  return content;
}

/** Connects a v1 client whose person answers each form after `PERSON_TAKES_MS`, and books a return. */
async function bookReturnSlowly(transport: Transport) {
  const client = new Client(
    { name: 'patient-v1-host', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    await new Promise((resolve) => setTimeout(resolve, PERSON_TAKES_MS));
    const schema = (request.params as { requestedSchema: Parameters<typeof fillReturnForm>[0] })
      .requestedSchema;
    return { action: 'accept', content: fillReturnForm(schema) };
  });
  await client.connect(transport);
  const progress: Progress[] = [];
  const started = Date.now();
  try {
    // The defaults (timeout 60 s) plus resetTimeoutOnProgress, and the onprogress v1 needs to send a token.
    const result = await client.callTool({ name: 'book_return', arguments: {} }, undefined, {
      resetTimeoutOnProgress: true,
      onprogress: (p) => progress.push(p),
    });
    const text = (result.content as { type: string; text?: string }[])
      .map((block) => block.text ?? '')
      .join('');
    return { text, isError: result.isError === true, progress, asked, tookMs: Date.now() - started };
  } finally {
    await client.close();
  }
}

describe('a TS SDK v1 host whose person answers after 75 s books a return', () => {
  let http: { url: string; token: string; child: ChildProcess };
  const dataDir = mkdtempSync(join(tmpdir(), 'interop-patient-'));

  beforeAll(async () => {
    http = await startBrightgrid(dataDir);
  });
  afterAll(() => {
    http?.child.kill('SIGTERM');
  });

  const check = (outcome: Awaited<ReturnType<typeof bookReturnSlowly>>) => {
    expect(outcome.isError, outcome.text).toBe(false);
    expect(outcome.text).toMatch(
      /^Return #\d+ booked \(Broken\): the courier collects 1 box on \d{4}-\d{2}-\d{2}/,
    );
    expect(outcome.asked).toEqual(['Book a return: tell us why, and when the courier should pick it up.']);
    expect(outcome.tookMs).toBeGreaterThan(PERSON_TAKES_MS);
    // 75 s of waiting at one reminder every 20 s.
    expect(outcome.progress.length).toBeGreaterThanOrEqual(3);
    expect(outcome.progress.every((p) => p.message === 'Waiting for your answer')).toBe(true);
  };

  it.concurrent(
    'over Streamable HTTP',
    async () => {
      const transport = new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${http.token}` } },
      });
      check(await bookReturnSlowly(transport));
    },
    PERSON_TAKES_MS + 60_000,
  );

  it.concurrent(
    'over stdio',
    async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(BRIGHTGRID, 'stdio.js')],
        env: {
          ...(process.env as Record<string, string>),
          BRIGHTGRID_DATA: dataDir,
          BRIGHTGRID_USER: 'alice',
        },
        stderr: 'inherit',
      });
      check(await bookReturnSlowly(transport));
    },
    PERSON_TAKES_MS + 60_000,
  );
});
