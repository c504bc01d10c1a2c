import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { childEnv, FIXTURE_SCRIPT, type FixtureEnv } from './fixture-env.js';
import {
  CAPABILITIES,
  type JsonRpcResponse,
  type ModernReply,
  type ModernWire,
  modernMeta,
} from './modern-envelope.js';

/**
 * Starts the fixture on stdio and pins the 2026-07-28 era with a `server/discover`; then requests
 * are JSON lines on the child's stdin and responses are read from its stdout by id.
 */
export async function startStdioWire(env: FixtureEnv = {}): Promise<ModernWire> {
  const child = spawn(process.execPath, [FIXTURE_SCRIPT], {
    env: childEnv({ ...env, PARLEY_FIXTURE_TRANSPORT: 'stdio' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const waiting = new Map<unknown, (message: JsonRpcResponse) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as JsonRpcResponse;
    const resolve = waiting.get(message.id);
    waiting.delete(message.id);
    resolve?.(message);
  });
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the stdio fixture exited with ${code}:\n${stderr}`)));
  });
  exited.catch(() => {});

  let nextId = 1;
  const raw = (message: Record<string, unknown>): Promise<ModernReply> => {
    const answered = new Promise<JsonRpcResponse>((resolve) => waiting.set(message.id, resolve));
    child.stdin.write(`${JSON.stringify(message)}\n`);
    return Promise.race([answered, exited]).then((response) => ({ status: undefined, message: response }));
  };
  const wire: ModernWire = {
    request(method, params, options = {}) {
      const capabilities = options.capabilities ?? CAPABILITIES.formOnly;
      return raw({
        jsonrpc: '2.0',
        id: nextId++,
        method,
        params: { _meta: modernMeta(capabilities), ...params },
      });
    },
    raw,
    log: () => stderr,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
        setTimeout(() => child.kill('SIGTERM'), 2000).unref();
      }),
  };
  const discovered = await wire.request('server/discover', {});
  if (!discovered.message.result)
    throw new Error(`server/discover failed: ${JSON.stringify(discovered.message)}`);
  return wire;
}
