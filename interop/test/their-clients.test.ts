// Parley's server against the clients people run today: FastMCP's Client and the mcp Python SDK's
// ClientSession (from interop/.venv), and the TypeScript SDK v1 Client, over stdio and Streamable
// HTTP, each on the era it picks (FastMCP: 2026-07-28; the others: 2025-11-25).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Plan,
  type PythonReport,
  peer,
  type RunningPeer,
  requirePython,
  run,
  runPythonClient,
  startParleyHttp,
} from './peers.js';

// Every case in one run (the calls go concurrently, so two are always in flight), answered by message.
const PLAN: Plan = {
  calls: [
    { tool: 'profile' },
    { tool: 'two_steps' },
    { tool: 'with_defaults' },
    { tool: 'sign_in' },
    { tool: 'confirm' },
    { tool: 'tagged', args: { tag: 'A', delay: 1 } },
    { tool: 'tagged', args: { tag: 'B', delay: 0 } },
    { tool: 'tagged', args: { tag: 'D', delay: 0 } },
    { tool: 'tagged', args: { tag: 'C', delay: 0 } },
  ],
  answers: {
    'Your profile': {
      accept: {
        name: 'Ada',
        email: 'ada@example.com',
        birthday: '1815-12-10',
        age: 36,
        height: 1.65,
        subscribed: true,
        size: 'm',
        toppings: ['ham', 'olives'],
      },
    },
    'Step 1: your name?': { accept: { value: 'Bo' } },
    'Step 2: favourite color?': { accept: { value: 'blue' } },
    // Only the field without a default: the Python clients do not fill defaults (and FastMCP sends
    // null for the empty optional nickname).
    'Sign up': { accept: { name: 'Ada' } },
    'Sign in to continue': { accept: {} },
    'Go ahead?': { accept: { value: true } },
    'Question for tag A': { accept: { value: 'apple' } },
    'Question for tag B': { accept: { value: 'banana' } },
    'Question for tag D': { action: 'decline' },
    'Question for tag C': { action: 'cancel' },
  },
};

const EXPECTED = [
  '{"name":"Ada","email":"ada@example.com","birthday":"1815-12-10","age":36,"height":1.65,"subscribed":true,"size":"m","toppings":["ham","olives"]}',
  'Bo likes blue',
  '{"name":"Ada","age":30,"subscribed":true}',
  'accept',
  'true',
  'A: apple',
  'B: banana',
  'D: decline',
  'C: cancel',
];

describe.each(['fastmcp', 'sdk'] as const)('Parley server, %s client', (kind) => {
  let http: RunningPeer;
  beforeAll(async () => {
    requirePython();
    http = await startParleyHttp();
  });
  afterAll(async () => {
    await http?.stop();
  });

  it.each(['stdio', 'http'] as const)('every case over %s', async (transport) => {
    const target = transport === 'http' ? http.url : `${process.execPath} ${peer('parley-server.mjs')} stdio`;
    const report = await runPythonClient(kind, target, PLAN);
    expect(report.results.map((result) => result.error ?? result.text)).toEqual(EXPECTED);
    expect(report.results.every((result) => result.isError === false)).toBe(true);
    // The defaults form was asked once: Parley filled the defaults instead of asking again.
    expect(report.asked.filter((question) => question.message === 'Sign up')).toHaveLength(1);
    const url = report.asked.find((question) => question.message === 'Sign in to continue');
    expect(url).toMatchObject({ mode: 'url', url: 'https://auth.example.com/start' });
    const profile = report.asked.find((question) => question.message === 'Your profile');
    expect(Object.keys(profile?.requestedSchema?.properties as object)).toHaveLength(8);
    expect(['2025-11-25', '2026-07-28']).toContain(report.protocol);
  });
});

describe('Parley server, TypeScript SDK v1 client', () => {
  let http: RunningPeer;
  beforeAll(async () => {
    http = await startParleyHttp();
  });
  afterAll(async () => {
    await http?.stop();
  });

  it.each(['stdio', 'http'] as const)('every case over %s (2025-11-25)', async (transport) => {
    const target = transport === 'http' ? http.url : `${process.execPath} ${peer('parley-server.mjs')} stdio`;
    const result = await run(process.execPath, [peer('ts-v1-client.mjs'), target, JSON.stringify(PLAN)]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as PythonReport;
    // The v1 client sends the fields it was given: Parley fills the defaults it left out.
    expect(report.results.map((entry) => entry.error ?? entry.text)).toEqual(EXPECTED);
    expect(report.asked.filter((question) => question.message === 'Sign up')).toHaveLength(1);
    expect(report.asked.find((question) => question.message === 'Sign in to continue')).toMatchObject({
      mode: 'url',
      url: 'https://auth.example.com/start',
    });
  });
});
