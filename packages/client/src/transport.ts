import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ConnectOptions } from './options.js';
import type { Target } from './target.js';

/** The SDK transport for a target: Streamable HTTP for a URL, stdio (a spawned process) otherwise. */
export function createTransport(
  target: Target,
  options: Pick<ConnectOptions, 'headers' | 'fetch' | 'env' | 'cwd' | 'stderr'>,
): StdioClientTransport | StreamableHTTPClientTransport {
  if (target.kind === 'http') {
    return new StreamableHTTPClientTransport(target.url, {
      ...(options.headers !== undefined && { requestInit: { headers: options.headers } }),
      ...(options.fetch !== undefined && { fetch: options.fetch }),
    });
  }
  const stderr = options.stderr ?? 'inherit';
  const transport = new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    env: { ...getDefaultEnvironment(), ...options.env },
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    stderr: typeof stderr === 'function' ? 'pipe' : stderr,
  });
  if (typeof stderr === 'function') forwardLines(transport, stderr);
  return transport;
}

/** Hands each line the server writes to stderr to `onLine` (the last partial line when it ends). */
function forwardLines(transport: StdioClientTransport, onLine: (line: string) => void): void {
  const stream = transport.stderr;
  if (stream === null) return;
  let buffered = '';
  stream.on('data', (chunk: Buffer | string) => {
    buffered += chunk.toString();
    const lines = buffered.split(/\r?\n/);
    buffered = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  stream.on('end', () => {
    if (buffered !== '') onLine(buffered);
    buffered = '';
  });
}
