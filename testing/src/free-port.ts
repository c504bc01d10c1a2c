import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A loopback port free right now, for a process that must be told its port before it listens (one
 * that can listen on port 0 and say which port it got should do that instead).
 *
 * It comes from outside the kernel's ephemeral range, which every `listen(0)` and every outgoing
 * connection draw from: on a busy machine (two test runs side by side) one of those could take a
 * port from that range between this check and the process's own bind. What is left, another
 * caller picking the same port first, {@link onFreePort} retries.
 */
export async function freePort(): Promise<number> {
  const [low, high] = fixedPortRange();
  for (;;) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await isFree(port)) return port;
  }
}

/** What a starter given to {@link onFreePort} throws when its port was taken before it bound it. */
export class PortTaken extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} was taken before the process could listen on it.`);
  }
}

/**
 * Runs `start` on a {@link freePort}, and again on another one while it throws {@link PortTaken}
 * (at most `attempts` times).
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= attempts) throw error;
    }
  }
}

/** Ports to pick from: below the ephemeral range (Linux `ip_local_port_range`), else above it. */
function fixedPortRange(): [number, number] {
  let ephemeral: [number, number] = [32768, 60999];
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    ephemeral = [Number(low), Number(high)];
  } catch {
    // Not Linux: assume its default range.
  }
  if (ephemeral[0] - 10_000 >= 1000) return [10_000, ephemeral[0] - 1];
  if (65_535 - ephemeral[1] >= 1000) return [ephemeral[1] + 1, 65_535];
  return [1024, 65_535];
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
