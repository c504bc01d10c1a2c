import { createConnection, createServer } from 'node:net';

/** A free loopback port, from the OS. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether something accepts TCP connections on a loopback port right now. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Waits until a loopback port accepts connections. Rejects after `timeoutMs`, or as soon as
 * `gaveUp()` returns a reason (e.g. the process that should listen has exited).
 */
export async function waitForPort(
  port: number,
  { timeoutMs = 10_000, gaveUp }: { timeoutMs?: number; gaveUp?: () => string | undefined } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await isListening(port)) return;
    const reason = gaveUp?.();
    if (reason !== undefined) throw new Error(reason);
    if (Date.now() > deadline)
      throw new Error(`Nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
