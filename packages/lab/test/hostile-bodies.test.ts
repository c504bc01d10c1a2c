// Issue 15, finding 2: the lab's API reads bodies through the one capped reader, and its 413
// reaches the page instead of a reset connection.
// Issue 29: it reaches the client every time: the listener lingers (answers, then reads the rest to
// nothing for a while) before it closes, where Node's reset could beat the answer.
import {
  howRefused,
  peakResidentMiB,
  residentMiB,
  sendChunkedFlood,
  socketBufferBytes,
} from '@parley/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Running, startLabProcess } from './helpers/processes.js';

const FLOOD = 200 * 1024 * 1024;
// The lab's API reads at most 1 MiB (server/read-json.ts).
const CAP = 1024 * 1024;

let lab: Running & { url: string };
beforeAll(async () => {
  lab = await startLabProcess();
});
afterAll(() => lab.stop());

it('answers a 200 MiB chunked API body 413: the client reads it, the lab holds none of it and serves on', async () => {
  const url = new URL(lab.url);
  const token = url.searchParams.get('token')!;
  const pid = lab.child.pid!;
  const before = residentMiB(pid);
  const page = async () => {
    const response = await fetch(lab.url);
    await response.body?.cancel();
    return response.status;
  };
  const [outcome, servedMeanwhile] = await Promise.all([
    sendChunkedFlood(
      {
        url: `${url.origin}/api/servers`,
        headers: { authorization: `Bearer ${token}`, origin: url.origin, 'content-type': 'application/json' },
      },
      FLOOD,
    ),
    page(),
  ]);
  // The client reads the 413 (or, had it kept sending past the cap, was reset).
  expect(howRefused(outcome, CAP)).toMatch(/^(413|reset past the cap)$/);
  // The lab stopped taking the body at the cap: no further than the sockets between them hold.
  expect(outcome.bytesSent).toBeLessThan(CAP + socketBufferBytes());
  // Its memory stays flat.
  expect(peakResidentMiB(pid) - before).toBeLessThan(100);
  // It keeps serving the page, during the flood and after it.
  expect(servedMeanwhile).toBe(200);
  expect(await page()).toBe(200);
});
