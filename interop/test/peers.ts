// Starts the third-party peers of the interop suite as real processes: the Python ones from
// interop/.venv (setup-python.sh), the TypeScript SDK v1 ones and Parley's own server with node.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const peer = (name: string): string => fileURLToPath(new URL(`../peers/${name}`, import.meta.url));
export const PYTHON = fileURLToPath(new URL('../.venv/bin/python', import.meta.url));

/** Fails with the fix when the virtualenv is missing, instead of a spawn error. */
export function requirePython(): void {
  if (!existsSync(PYTHON)) {
    throw new Error(
      'interop/.venv is missing: run `bash interop/setup-python.sh` (npm run test:interop does)',
    );
  }
}

export interface RunningPeer {
  readonly url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/**
 * Starts an HTTP peer that takes its port as the last argument, and waits until it answers; `env`
 * is added to its environment.
 */
export async function startHttpPeer(
  command: string,
  args: readonly string[],
  path = '/mcp',
  env: Readonly<Record<string, string>> = {},
): Promise<RunningPeer> {
  const port = await freePort();
  const child = spawn(command, [...args, String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}${path}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited: ${stderr}`);
    try {
      await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1_000) });
      return { url, stop: stopper(child) };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  await stopper(child)();
  throw new Error(`${command} ${args.join(' ')} did not listen on ${url} within 90 s: ${stderr}`);
}

/** Starts Parley's peer server over HTTP (it prints its URL). */
export function startParleyHttp(): Promise<RunningPeer> {
  return startPrintingPeer(process.execPath, [peer('parley-server.mjs'), 'http']);
}

/** Starts a peer that prints its URL on stdout once it listens (Parley's, the TS SDK v2 one). */
export async function startPrintingPeer(command: string, args: readonly string[]): Promise<RunningPeer> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /(http\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  return { url, stop: stopper(child) };
}

/** Runs a process to its end and returns what it printed. */
export function run(
  command: string,
  args: readonly string[],
  timeoutMs = 90_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} ran past ${timeoutMs} ms: ${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** What a Python client script reports. */
export interface PythonReport {
  readonly protocol: string;
  readonly results: { text?: string; isError?: boolean; error?: string }[];
  readonly asked: {
    mode?: string;
    message: string;
    requestedSchema?: Record<string, unknown>;
    url?: string;
  }[];
}

export interface Plan {
  readonly calls: { tool: string; args?: Record<string, unknown> }[];
  readonly answers: Record<string, { accept: Record<string, unknown> } | { action: 'decline' | 'cancel' }>;
}

/** Runs interop/peers/python_client.py (FastMCP's Client or the mcp SDK's ClientSession) with a plan. */
export async function runPythonClient(
  kind: 'fastmcp' | 'sdk',
  target: string,
  plan: Plan,
): Promise<PythonReport> {
  const result = await run(PYTHON, [peer('python_client.py'), kind, target, JSON.stringify(plan)]);
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  if (result.code !== 0 || !line.startsWith('{')) {
    throw new Error(`python_client.py ${kind} failed (${result.code}): ${result.stderr.slice(-3000)}`);
  }
  return JSON.parse(line) as PythonReport;
}
