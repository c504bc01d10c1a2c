import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerSideChannel } from './side-channel.js';

/** The stderr line a stdio server writes when `BENCH_SIDE_CHANNEL=1`: `{"sideChannel": url}`. */
export interface SideChannelAnnouncement {
  readonly sideChannel: string;
}

/**
 * A stdio server has no HTTP endpoint to hang the side channel on, so it opens one of its own on
 * loopback (asked for with `BENCH_SIDE_CHANNEL=1`) and announces it as one JSON line on stderr.
 * Its own cost is fixed, so it cancels out of any before/after memory difference.
 */
export async function announceSideChannel(): Promise<() => Promise<void>> {
  const http = createServer((req, res) => {
    if (!answerSideChannel(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  // Never what keeps the process alive: a stdio server still exits when its stdin ends.
  http.unref();
  const { port } = http.address() as AddressInfo;
  const announcement: SideChannelAnnouncement = { sideChannel: `http://127.0.0.1:${port}/` };
  process.stderr.write(`${JSON.stringify(announcement)}\n`);
  return () => {
    http.closeAllConnections();
    return new Promise<void>((resolve) => http.close(() => resolve()));
  };
}
