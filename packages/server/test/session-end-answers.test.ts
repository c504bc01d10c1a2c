// Issue 18: a 2025-era call still waiting on the person when its server stops (a replica's graceful
// stop in a rolling deploy) or when its client ends the session used to leave the client waiting
// out its request timeout. Now the call is answered at once with an error that says what happened.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ask, createServer, type Listening } from '@parley/server';
import { afterEach, describe, expect, it } from 'vitest';

let listening: Listening | undefined;
afterEach(async () => {
  await listening?.close();
  listening = undefined;
});

async function serve(): Promise<Listening> {
  const server = createServer({ name: 'session-end', version: '1.0.0', log: () => {} });
  server.tool('asks', { description: 'Asks one question and waits.' }, async (_args, ctx) => {
    const answer = await ctx.elicit('A note?', ask.text(), { key: 'q' });
    return answer.action;
  });
  listening = await server.listen();
  return listening;
}

/** A 2025-era client whose person answers after `answersAfterMs` (never, by default), with one call waiting on its question. */
async function waitingCall(url: string, protocolVersion: string, answersAfterMs?: number) {
  let asked!: () => void;
  const questionArrived = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const client = new Client(
    { name: 'session-end-test', version: '1' },
    { capabilities: { elicitation: {} }, supportedProtocolVersions: [protocolVersion] },
  );
  client.setRequestHandler('elicitation/create', () => {
    asked();
    return new Promise((resolve) => {
      if (answersAfterMs !== undefined)
        setTimeout(() => resolve({ action: 'accept', content: { value: 'late' } }), answersAfterMs);
    });
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  const started = Date.now();
  const call = client.callTool({ name: 'asks', arguments: {} }, { timeout: 60_000 }).then(
    (result) => ({
      error: undefined,
      text: (result.content as { text?: string }[])[0]?.text,
      afterMs: Date.now() - started,
    }),
    (error: unknown) => ({
      error: error instanceof Error ? error.message : String(error),
      afterMs: Date.now() - started,
    }),
  );
  await questionArrived;
  return { client, transport, call };
}

describe.each([['2025-06-18'], ['2025-11-25']])('a waiting 2025-era call (%s)', (version) => {
  it('is answered with an error when the server stops, not left to time out', async () => {
    const { url } = await serve();
    const { client, call } = await waitingCall(url, version);
    const stopping = Date.now();
    await listening?.close();
    listening = undefined;
    const ended = await call;
    expect(ended.error).toMatch(/server stopped before this call finished; call again/);
    expect(Date.now() - stopping).toBeLessThan(30_000); // far below the call's 60 s timeout
    await client.close();
  });

  it('finishes when its person answers while the stopping server drains, which refuses new requests', async () => {
    const { url } = await serve();
    const { client, call } = await waitingCall(url, version, 600);
    const closing = listening!.close({ drainMs: 20_000 });
    listening = undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /^This server is stopping: send the request again/,
    );
    const ended = await call;
    expect(ended).toMatchObject({ error: undefined, text: 'accept' });
    await closing;
    await client.close();
  });

  it('is answered with the stop error when it outlasts the drain', async () => {
    const { url } = await serve();
    const { client, call } = await waitingCall(url, version);
    const stopping = Date.now();
    await listening!.close({ drainMs: 300 });
    listening = undefined;
    expect((await call).error).toMatch(/server stopped before this call finished; call again/);
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(300);
    await client.close();
  });

  it('is answered with an error when its client ends the session', async () => {
    const { url } = await serve();
    const { client, transport, call } = await waitingCall(url, version);
    const other = await waitingCall(url, version);
    await transport.terminateSession();
    expect((await call).error).toMatch(/session was ended \(DELETE\) before this call finished/);
    // Another session's call is untouched, and the server serves on.
    const list = await other.client.listTools();
    expect(list.tools.map((tool) => tool.name)).toEqual(['asks']);
    await client.close();
    await other.client.close();
  });
});
