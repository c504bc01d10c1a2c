import { spawn } from 'node:child_process';

/** What a finished process printed. */
export interface NodeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a Node script to completion with `stdin` as its whole input (a pipe: no terminal) and
 * collects what it printed.
 */
export function runNode(
  args: readonly string[],
  options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {},
): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], {
      env: { ...process.env, ...options.env },
      ...(options.cwd !== undefined && { cwd: options.cwd }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
