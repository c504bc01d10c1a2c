// Issue 15, finding 2: the store's pages read bodies through one capped reader. Before, the form
// reader trusted only a declared Content-Length, so a chunked body was read whole with no sign-in
// needed (one 200 MiB request took the process from 134 to 741 MB RSS).
import { peakResidentMiB, residentMiB, sendChunkedFlood } from '@parley/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BrightgridProcess, startBrightgridProcess } from './processes.js';

const FLOOD = 200 * 1024 * 1024;
let brightgrid: BrightgridProcess;

beforeAll(async () => {
  brightgrid = await startBrightgridProcess();
});
afterAll(() => brightgrid.process.stop());

it('answers a 200 MiB chunked form post 413 without holding it in memory (/signin, /signout, /connect)', async () => {
  const pid = brightgrid.process.child.pid!;
  const form = { 'content-type': 'application/x-www-form-urlencoded', origin: brightgrid.origin };
  const before = residentMiB(pid);
  for (const path of ['/signin', '/signout', '/connect/store-account/abc']) {
    const outcome = await sendChunkedFlood({ url: `${brightgrid.origin}${path}`, headers: form }, FLOOD);
    console.log(`${path}: ${outcome.status} after ${(outcome.bytesSent / 2 ** 20).toFixed(1)} MiB sent`);
    expect(outcome.status, path).toBeGreaterThanOrEqual(400);
    expect(outcome.bytesSent, path).toBeLessThan(FLOOD / 2);
    if (path !== '/connect/store-account/abc') expect(outcome.status, path).toBe(413);
  }
  const peak = peakResidentMiB(pid);
  console.log(`RSS before ${before.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB`);
  expect(peak - before).toBeLessThan(100);
  // Still serving.
  expect((await fetch(`${brightgrid.origin}/signin`)).status).toBe(200);
});
