// Issue 15, finding 6: URL flows stored whatever name the client gave itself. 150 calls with a
// 900 KB clientInfo.name held 161 MB for 30 minutes, in the memory store and in Redis alike, and
// nothing capped the pending flows of one user. Now names are cut to 80 characters, flow data is
// capped at 4 KB and a user has at most 10 pending flows, in both stores.
import { randomBytes } from 'node:crypto';
import { residentMiB, startRedis } from '@parley/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrightgridProcess, startBrightgridProcess } from './processes.js';

const HUGE_NAME = 'A'.repeat(900 * 1024);
let redis: Awaited<ReturnType<typeof startRedis>>;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

let nextId = 1;
async function connectAsHugeClient(brightgrid: BrightgridProcess) {
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: {
      name: 'connect_store_account',
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
        'io.modelcontextprotocol/clientInfo': { name: HUGE_NAME, version: '1' },
      },
    },
  };
  const response = await fetch(brightgrid.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'connect_store_account',
      authorization: `Bearer ${brightgrid.tokens.alice}`,
    },
    body: JSON.stringify(body),
  });
  const reply = (await response.json()) as {
    result?: { resultType?: string; isError?: boolean; content?: { text: string }[] };
  };
  return reply.result;
}

/** Signs `user` in on the store's page; the session cookie. */
async function signIn(brightgrid: BrightgridProcess, user: string): Promise<string> {
  const form = await fetch(`${brightgrid.origin}/signin`);
  const csrfCookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const response = await fetch(`${brightgrid.origin}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: brightgrid.origin,
      cookie: csrfCookie,
    },
    body: new URLSearchParams({ csrf, return_to: '/', username: user, password: 'wonderland' }).toString(),
  });
  expect(response.status).toBe(303);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

describe.each([
  ['the memory store', (): Record<string, string> => ({})],
  [
    'Redis',
    (): Record<string, string> => ({
      REDIS_URL: redis.url,
      PARLEY_STATE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    }),
  ],
])('URL flows in %s', (_name, env) => {
  let brightgrid: BrightgridProcess;
  beforeAll(async () => {
    brightgrid = await startBrightgridProcess(undefined, env());
  });
  afterAll(() => brightgrid?.process.stop());

  it('150 calls with a 900 KB client name: 10 flows of small data, the rest refused', async () => {
    const pid = brightgrid.process.child.pid!;
    const before = residentMiB(pid);
    const results = [];
    for (let batch = 0; batch < 30; batch++) {
      results.push(...(await Promise.all(Array.from({ length: 5 }, () => connectAsHugeClient(brightgrid)))));
    }
    const asked = results.filter((result) => result?.resultType === 'input_required');
    const refused = results.filter((result) => result?.isError);
    expect(asked).toHaveLength(10);
    expect(refused).toHaveLength(140);
    expect(refused[0]!.content![0]!.text).toMatch(/already have 10 links waiting/);
    console.log(`RSS grew ${(residentMiB(pid) - before).toFixed(1)} MiB over 150 calls (garbage included)`);
    // What the flow stored: the page alice opens names the client in 80 characters at most.
    const inputRequests = (asked[0] as { inputRequests: Record<string, { params: { url: string } }> })
      .inputRequests;
    const flowUrl = Object.values(inputRequests)[0]!.params.url;
    const page = await (
      await fetch(flowUrl, { headers: { cookie: await signIn(brightgrid, 'alice') } })
    ).text();
    expect(page).toContain('A'.repeat(80));
    expect(page).not.toContain('A'.repeat(81));
    if (env().REDIS_URL) {
      const client = new Redis(redis.url);
      try {
        const keys = await client.keys('*flow*');
        const sizes = await Promise.all(keys.map((key) => client.memory('USAGE', key)));
        expect(keys.length).toBeGreaterThanOrEqual(10);
        expect(Math.max(...sizes.map(Number))).toBeLessThan(4096 + 1024);
      } finally {
        client.disconnect();
      }
    }
  });
});
