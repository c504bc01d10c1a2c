// The gateway's end-to-end tests: upstream servers as real processes (Parley's, the raw SDK's), the
// gateway in this process on real loopback HTTP (its audit and state are what the tests look at),
// and real clients in front of it.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createGateway, type Gateway, type GatewayOptions, type QuestionAudit } from '@parley/gateway';

export const fixture = (name: string): string =>
  fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

export interface Upstream {
  readonly url: string;
  readonly stderr: () => string;
  stop(): Promise<void>;
}

/** Starts a fixture that prints its URL on its first line. */
export async function startUpstream(script: string, ...args: string[]): Promise<Upstream> {
  return startUpstreamWith(script, args, {});
}

/** {@link startUpstream} with extra environment (`PORT` pins the Parley fixture's port). */
export async function startUpstreamWith(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<Upstream> {
  const child: ChildProcess = spawn(process.execPath, [fixture(script), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n')[0];
      if (seen.includes('\n') && line) resolve(line.trim());
    });
    child.once('exit', (code) =>
      reject(new Error(`${script} exited with ${code} before printing its URL: ${stderr}`)),
    );
  });
  return {
    url,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface RunningGateway {
  readonly gateway: Gateway;
  readonly url: string;
  readonly audit: QuestionAudit[];
  readonly logs: string[];
  stop(): Promise<void>;
}

/** Starts a gateway on loopback in this process, keeping its audit events and log lines. */
export async function startGateway(config: unknown, options: GatewayOptions = {}): Promise<RunningGateway> {
  const audit: QuestionAudit[] = [];
  const logs: string[] = [];
  const gateway = createGateway(config, {
    onAudit: (event) => audit.push(event),
    log: (level, message) => logs.push(`${level} ${message}`),
    ...options,
  });
  const listening = await gateway.listen({ port: 0 });
  return {
    gateway,
    url: listening.url,
    audit,
    logs,
    stop: async () => {
      await gateway.close();
      await listening.close();
    },
  };
}

/** The text of a result's content blocks. */
export function textOf(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}
