// Issue 24, finding 1: per-tool, per-prompt, per-resource (and resource template) scopes hold for
// every message a client sends, single or batched, on both 2025 eras, and for the tasks/* requests
// that act on a task whose tool needs a scope. The server is a real process (the scoped-server
// fixture) checking real ES256 JWTs with jwtVerifier against a JWKS this test serves on loopback.
// Before the fix a batch `[tools/call book, resources/read vault://keys]` with a token holding
// neither scope answered 200 with both results.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, MODERN, modernMeta } from './wire/modern-envelope.js';

const FIXTURE = fileURLToPath(new URL('./dist/fixtures/scoped-server.js', import.meta.url));
const TASKS = { ...CAPABILITIES.formOnly, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const ALL_SCOPES = 'base bookings:write review:write plans:read vault:read orders:read';

let issuerServer: Server;
let issuer: string;
let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let child: ChildProcess;
let url: string;
const stderr: string[] = [];

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  signingKey = privateKey;
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  issuerServer = createHttpServer((req, res) => {
    const body =
      req.url === '/.well-known/oauth-authorization-server'
        ? {
            issuer,
            jwks_uri: `${issuer}/jwks`,
            authorization_endpoint: `${issuer}/auth`,
            token_endpoint: `${issuer}/token`,
          }
        : req.url === '/jwks'
          ? { keys: [jwk] }
          : undefined;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;

  child = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, SCOPED_ISSUER: issuer },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the fixture exited with ${code}:\n${stderr.join('\n')}`)));
  });
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await new Promise((resolve) => issuerServer?.close(resolve));
});

function token(scope: string, sub = 'alice'): Promise<string> {
  return new SignJWT({ scope })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
    .setSubject(sub)
    .setIssuer(issuer)
    .setAudience(url)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
    .sign(signingKey);
}

interface Reply {
  readonly status: number;
  readonly challenge: string;
  /** Every JSON-RPC message of the body (JSON or SSE). */
  readonly messages: { id?: unknown; result?: Record<string, unknown>; error?: { code: number } }[];
}

async function post(body: unknown, headers: Record<string, string>): Promise<Reply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const isSse = response.headers.get('content-type')?.includes('text/event-stream');
  const parsed = isSse
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:') && line.length > 6)
        .map((line) => JSON.parse(line.slice(5)))
    : text === ''
      ? []
      : [JSON.parse(text)].flat();
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate') ?? '',
    messages: parsed,
  };
}

/** A 2025-era session opened with `accessToken`: initialize, then notifications/initialized. */
async function openSession(version: string, accessToken: string) {
  const auth = { authorization: `Bearer ${accessToken}` };
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: 'scope-attacker', version: '1' },
      },
    }),
  });
  expect(response.status).toBe(200);
  await response.text();
  const session = response.headers.get('mcp-session-id')!;
  const headers = { ...auth, 'mcp-session-id': session, 'mcp-protocol-version': version };
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
  return {
    headers,
    send: (body: unknown, asToken = accessToken) =>
      post(body, { ...headers, authorization: `Bearer ${asToken}` }),
  };
}

let nextId = 1;
const call = (method: string, params: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method,
  params,
});
const bookCall = () => call('tools/call', { name: 'book', arguments: {} });
const vaultRead = () => call('resources/read', { uri: 'vault://keys' });
const planGet = () => call('prompts/get', { name: 'plan' });
const orderRead = () => call('resources/read', { uri: 'orders://42' });
const orderComplete = () =>
  call('completion/complete', {
    ref: { type: 'ref/resource', uri: 'orders://{id}' },
    argument: { name: 'id', value: '4' },
  });
const planComplete = () =>
  call('completion/complete', {
    ref: { type: 'ref/prompt', name: 'plan' },
    argument: { name: 'x', value: '' },
  });

/** The guarded handlers that ran so far (the `runs` tool needs only the base scope). */
async function runs(): Promise<string[]> {
  const message = call('tools/call', { name: 'runs', arguments: {}, _meta: modernMeta(CAPABILITIES.none) });
  const reply = await post(message, {
    authorization: `Bearer ${await token('base')}`,
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': 'runs',
  });
  expect(reply.status).toBe(200);
  return JSON.parse((reply.messages[0]!.result!.content as { text: string }[])[0]!.text);
}

function expectRefused(reply: Reply, scope: string) {
  expect(reply.status).toBe(403);
  expect(reply.challenge).toContain('error="insufficient_scope"');
  expect(reply.challenge).toMatch(new RegExp(`scope="[^"]*\\b${scope.replace(':', '\\:')}\\b`));
  expect(reply.challenge).toContain('resource_metadata=');
}

describe.each(['2025-06-18', '2025-11-25'])('scopes inside a %s session', (version) => {
  it('refuse a batch [tools/call book, resources/read vault://keys] with a token holding neither scope, and run neither', async () => {
    const before = await runs();
    const session = await openSession(version, await token('base'));
    const reply = await session.send([bookCall(), vaultRead()]);
    expectRefused(reply, 'bookings:write');
    expect(reply.messages.some((message) => message.result !== undefined)).toBe(false);
    expect(await runs()).toEqual(before);
  });

  it('refuse a batch whose first message is allowed and whose second needs a scope the token lacks', async () => {
    const before = await runs();
    const session = await openSession(version, await token('base bookings:write'));
    expectRefused(await session.send([bookCall(), planGet()]), 'plans:read');
    expectRefused(
      await session.send([call('tools/call', { name: 'runs', arguments: {} }), vaultRead()]),
      'vault:read',
    );
    expect(await runs()).toEqual(before);
  });

  it.each([
    ['tools/call', bookCall, 'bookings:write'],
    ['prompts/get', planGet, 'plans:read'],
    ['resources/read of a resource', vaultRead, 'vault:read'],
    ['resources/read of a URI a template serves', orderRead, 'orders:read'],
    ['completion/complete of a resource template', orderComplete, 'orders:read'],
    ['completion/complete of a prompt', planComplete, 'plans:read'],
  ])('refuse %s, alone and batched with a notification, without the scope', async (_name, make, scope) => {
    const before = await runs();
    const session = await openSession(version, await token('base'));
    expectRefused(await session.send(make()), scope);
    expectRefused(
      await session.send([
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
        make(),
      ]),
      scope,
    );
    expect(await runs()).toEqual(before);
  });

  it('refuse a session opened with every scope once a token without them is sent on it', async () => {
    const session = await openSession(version, await token(ALL_SCOPES));
    expectRefused(await session.send([bookCall()], await token('base')), 'bookings:write');
  });

  it('serve the same batch to a token holding every scope it needs', async () => {
    const session = await openSession(version, await token(ALL_SCOPES));
    const reply = await session.send([bookCall(), vaultRead(), orderRead(), planGet()]);
    expect(reply.status).toBe(200);
    expect(reply.messages.filter((message) => message.result !== undefined)).toHaveLength(4);
  });
});

describe('scopes on tasks (2026-07-28)', () => {
  async function modern(method: string, params: Record<string, unknown>, accessToken: string) {
    const message = { jsonrpc: '2.0', id: nextId++, method, params: { _meta: modernMeta(TASKS), ...params } };
    const name = (params.name ?? params.taskId) as string | undefined;
    return post(message, {
      authorization: `Bearer ${accessToken}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name !== undefined && { 'mcp-name': name }),
    });
  }

  async function waitingTask(): Promise<string> {
    const created = await modern(
      'tools/call',
      { name: 'review', arguments: {} },
      await token('base review:write'),
    );
    expect(created.messages[0]?.result?.resultType).toBe('task');
    const taskId = String(created.messages[0]!.result!.taskId);
    for (let tries = 0; tries < 200; tries++) {
      const got = await modern('tasks/get', { taskId }, await token('base review:write'));
      if (got.messages[0]?.result?.status === 'input_required') return taskId;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the task never asked');
  }

  it('refuse tasks/get, tasks/update and tasks/cancel from the same user with a token lacking the task tool scope', async () => {
    const taskId = await waitingTask();
    const narrow = await token('base');
    expectRefused(await modern('tasks/get', { taskId }, narrow), 'review:write');
    expectRefused(
      await modern(
        'tasks/update',
        { taskId, inputResponses: { verdict: { action: 'accept', content: { value: true } } } },
        narrow,
      ),
      'review:write',
    );
    expectRefused(await modern('tasks/cancel', { taskId }, narrow), 'review:write');
    const still = await modern('tasks/get', { taskId }, await token('base review:write'));
    expect(still.messages[0]?.result?.status).toBe('input_required');
  });

  it('refuse the same tasks/* requests batched into a 2025 session', async () => {
    const taskId = await waitingTask();
    for (const version of ['2025-06-18', '2025-11-25']) {
      const session = await openSession(version, await token('base'));
      expectRefused(await session.send([call('tasks/get', { taskId })]), 'review:write');
      expectRefused(await session.send([call('tasks/cancel', { taskId })]), 'review:write');
    }
    const still = await modern('tasks/get', { taskId }, await token('base review:write'));
    expect(still.messages[0]?.result?.status).toBe('input_required');
  });

  it('let a token with the scope steer the task to its end', async () => {
    const taskId = await waitingTask();
    const full = await token('base review:write');
    const update = await modern(
      'tasks/update',
      { taskId, inputResponses: { verdict: { action: 'accept', content: { value: true } } } },
      full,
    );
    expect(update.status).toBe(200);
    for (let tries = 0; tries < 200; tries++) {
      const got = await modern('tasks/get', { taskId }, full);
      if (got.messages[0]?.result?.status === 'completed') {
        expect(got.messages[0].result.result).toMatchObject({ content: [{ text: 'Shipped.' }] });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the task never completed');
  });
});
