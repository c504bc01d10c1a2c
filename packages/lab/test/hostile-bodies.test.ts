// Issue 15, finding 2: the lab's API reads bodies through the one capped reader, and its 413
// reaches the page instead of a reset connection.
import { peakResidentMiB, residentMiB, sendChunkedFlood } from '@parley/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Running, startLabProcess } from './helpers/processes.js';

let lab: Running & { url: string };
beforeAll(async () => {
  lab = await startLabProcess();
});
afterAll(() => lab.stop());

it('answers a 200 MiB chunked API body 413 without holding it', async () => {
  const url = new URL(lab.url);
  const token = url.searchParams.get('token')!;
  const pid = lab.child.pid!;
  const before = residentMiB(pid);
  const outcome = await sendChunkedFlood(
    {
      url: `${url.origin}/api/servers`,
      headers: { authorization: `Bearer ${token}`, origin: url.origin, 'content-type': 'application/json' },
    },
    200 * 1024 * 1024,
  );
  expect(outcome.status).toBe(413);
  expect(outcome.bytesSent).toBeLessThan(100 * 1024 * 1024);
  expect(peakResidentMiB(pid) - before).toBeLessThan(100);
});
