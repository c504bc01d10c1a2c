import { UsageError } from '../exit-codes.js';

/** A `--port` value: 0 (any free port) when none is given. */
export function readPort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a port number from 0 to 65535; got "${text}"`);
  }
  return port;
}

/** Resolves when the process is asked to stop (Ctrl-C or SIGTERM). */
export function stopRequested(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
