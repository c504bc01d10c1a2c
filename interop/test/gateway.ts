// `parley gateway` as a real process in front of the third-party upstreams of the interop suite, and
// what the tests read from it: its URL and its audit lines (`--audit`: one JSON line per question
// that crossed, on stderr).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  PYTHON,
  peer,
  type RunningPeer,
  requirePython,
  startHttpPeer,
  startParleyHttp,
  startPrintingPeer,
} from './peers.js';

export const PARLEY = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));

/** One audit event of the gateway (never the answers). */
export interface AuditLine {
  readonly upstream: string;
  readonly name: string;
  readonly mode: string;
  readonly pairing: string;
  readonly outcome: string;
  readonly fallback?: string;
}

export interface RunningGateway {
  readonly url: string;
  /** The audit events printed so far. */
  audit(): AuditLine[];
  stop(): Promise<void>;
}

/**
 * Runs `parley gateway --config <file> --audit` with this configuration (written to a temporary
 * file) and resolves once it listens and every upstream has connected.
 */
export async function startGateway(config: {
  upstreams: Record<string, unknown>;
  pages?: Record<string, unknown>;
}): Promise<RunningGateway> {
  const file = join(mkdtempSync(join(tmpdir(), 'interop-gateway-')), 'gateway.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return startGatewayProcess(['--config', file], Object.keys(config.upstreams));
}

/** Runs `parley gateway --audit <args>` and waits for its URL and for each of `upstreams` to connect. */
export async function startGatewayProcess(
  args: readonly string[],
  upstreams: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningGateway> {
  const child: ChildProcess = spawn(process.execPath, [PARLEY, 'gateway', '--audit', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    ...(options.env !== undefined && { env: options.env }),
  });
  const audit: AuditLine[] = [];
  const connected = new Set<string>();
  let stderr = '';
  let url: string | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (url !== undefined && upstreams.every((name) => connected.has(name))) resolve();
    };
    createInterface({ input: child.stdout! }).on('line', (line) => {
      url ??= /^Gateway: (http:\/\/\S+)$/.exec(line)?.[1];
      check();
    });
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderr = `${stderr}${line}\n`.slice(-8000);
      if (line.startsWith('audit {')) audit.push(JSON.parse(line.slice('audit '.length)) as AuditLine);
      const name = /^([\w-]+): connected \(/.exec(line)?.[1];
      if (name !== undefined) connected.add(name);
      check();
    });
    child.once('exit', (code) => reject(new Error(`parley gateway exited with ${code}:\n${stderr}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  const timer = setTimeout(() => void stop(), 120_000);
  try {
    await ready;
  } finally {
    clearTimeout(timer);
  }
  return { url: url!, audit: () => [...audit], stop };
}

/**
 * The third-party upstreams behind one gateway, each named as hosts see its tools
 * (`<upstream>_<tool>`), with the title people are told asks:
 * - `fastmcp`: FastMCP 4 over HTTP, era `auto` ("FastMCP shop"): its guard tools on 2026-07-28,
 *   its `ctx.elicit` tools called again on a 2025 session;
 * - `pysdk`: the mcp Python SDK over stdio, era `auto` (its own name, `python-sdk-peer`): it offers
 *   2026-07-28 there, but its `ctx.elicit` asks only over the handshake, so every call falls back;
 * - `tsv1`: a TypeScript SDK v1 server over stdio (`ts-v1-peer`): 2025-11-25, its only era;
 * - `tsv2`: the raw TypeScript SDK v2 server over HTTP, pinned to 2026-07-28 ("Courier desk");
 * - `parley`: a Parley server over HTTP, era `auto`, so 2026-07-28 (`parley-peer`).
 */
export async function startThirdPartyGateway(): Promise<{ gateway: RunningGateway; stop(): Promise<void> }> {
  requirePython();
  const peers: RunningPeer[] = [];
  try {
    const [fastmcp, tsv2, parley] = await Promise.all([
      startHttpPeer(PYTHON, [peer('fastmcp_server.py'), 'http']),
      startPrintingPeer(process.execPath, [peer('ts-v2-server.mjs')]),
      startParleyHttp(),
    ]);
    peers.push(fastmcp, tsv2, parley);
    const gateway = await startGateway({
      upstreams: {
        fastmcp: { url: fastmcp.url, title: 'FastMCP shop' },
        pysdk: { command: PYTHON, args: [peer('python_sdk_server.py'), 'stdio'] },
        tsv1: { command: process.execPath, args: [peer('ts-v1-server.mjs'), 'stdio'] },
        tsv2: { url: tsv2.url, era: '2026-07-28', title: 'Courier desk' },
        parley: { url: parley.url },
      },
      // The Inspector's CLI carries nothing back between runs (no resume token), and this gateway
      // serves one person on loopback: its calls may be found again by address.
      pages: { anonymousByAddress: true },
    });
    return {
      gateway,
      stop: async () => {
        await gateway.stop();
        await Promise.all(peers.map((running) => running.stop()));
      },
    };
  } catch (error) {
    await Promise.all(peers.map((running) => running.stop()));
    throw error;
  }
}
