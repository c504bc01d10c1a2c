import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenParley } from '../servers/parley.js';
import { listenSdk } from '../servers/sdk.js';
import { SideChannelClient } from '../servers/side-channel-client.js';
import { FlowError } from './flow.js';
import { HandshakeSession, handshakeDriver } from './handshake-flow.js';
import { runLoad } from './run-load.js';

// The servers run in this process here; the bench runs each in its own.
let parley: Awaited<ReturnType<typeof listenParley>>;
let sdk: Awaited<ReturnType<typeof listenSdk>>;
beforeAll(async () => {
  parley = await listenParley();
  sdk = await listenSdk();
});
afterAll(async () => {
  await Promise.all([parley.close(), sdk.close()]);
});

describe('the 2025 handshake driver', () => {
  it('answers each question pushed on the call’s stream and checks the result, one round per leg', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    try {
      const session = await HandshakeSession.open(parley.url, agent);
      for (const questions of [1, 5, 20]) {
        const flow = await session.runFlow(questions);
        expect(flow.roundNs).toHaveLength(questions + 1);
        expect(flow.stateChars).toEqual([]);
      }
      await session.close();
    } finally {
      agent.destroy();
    }
  });

  it('drives a load of whole flows, a session per flow in flight', async () => {
    const stats = new SideChannelClient(parley.url, 'parley');
    const run = await runLoad(
      { url: parley.url, stats: (options) => stats.stats(options) },
      { questions: 2, concurrency: 3, durationMs: 300 },
      handshakeDriver(parley.url, 3),
    );
    expect(run.flows).toBeGreaterThan(0);
    expect(run.rounds).toBe(run.flows * 3);
    expect(run.cpuPerRoundUs).toBeGreaterThan(0);
    // Every call finished: nothing is left waiting on the server.
    expect((await stats.stats()).handlersRunning).toBe(0);
  });

  it('refuses a server that keeps no 2025 session (the raw SDK served statelessly), naming the step', async () => {
    const agent = new Agent({ keepAlive: true });
    try {
      await expect(HandshakeSession.open(sdk.url, agent)).rejects.toThrow(FlowError);
      await expect(HandshakeSession.open(sdk.url, agent)).rejects.toThrow(/initialize/);
    } finally {
      agent.destroy();
    }
  });
});
