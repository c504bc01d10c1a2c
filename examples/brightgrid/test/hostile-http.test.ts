// Issue 15, finding 2: the store's pages read bodies through one capped reader. Before, the form
// reader trusted only a declared Content-Length, so a chunked body was read whole with no sign-in
// needed (one 200 MiB request took the process from 134 to 741 MB RSS).
// Issue 29: the refusal reaches the client every time. Node closed the connection at once with the
// flood unread, and the reset could beat the answer (no status, EPIPE; once in two runs of
// `npm test` on 2 busy cores); the listener now lingers before it closes.
import { spawn } from 'node:child_process';
import {
  howRefused,
  peakResidentMiB,
  residentMiB,
  sendChunkedFlood,
  socketBufferBytes,
} from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrightgridProcess, startBrightgridProcess } from './processes.js';

const FLOOD = 200 * 1024 * 1024;
// The store's forms (web/read-form.ts) and the MCP endpoint (Parley's default).
const FORM_CAP = 8192;
const ENDPOINT_CAP = 1024 * 1024;

let brightgrid: BrightgridProcess;
let before: number;
beforeAll(async () => {
  brightgrid = await startBrightgridProcess();
  before = residentMiB(brightgrid.process.child.pid!);
});
afterAll(() => brightgrid?.process.stop());

const signInPage = async () => {
  const response = await fetch(`${brightgrid.origin}/signin`);
  await response.body?.cancel();
  return response.status;
};

// What each refuses: a form past its cap (413), a connect page for no such flow (404, unread).
const TARGETS = [
  { path: '/signin', cap: FORM_CAP, status: 413 },
  { path: '/signout', cap: FORM_CAP, status: 413 },
  { path: '/connect/store-account/abc', cap: FORM_CAP, status: 404 },
  { path: '/mcp', cap: ENDPOINT_CAP, status: 413 },
] as const;

describe('a 200 MiB chunked body', () => {
  for (const { path, cap, status } of TARGETS) {
    it(`is refused on ${path}: the client reads why, the server holds none of it and serves on`, async () => {
      const pid = brightgrid.process.child.pid!;
      const headers = {
        'content-type': path === '/mcp' ? 'application/json' : 'application/x-www-form-urlencoded',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${brightgrid.tokens.alice}`,
        origin: brightgrid.origin,
      };
      const [outcome, servedMeanwhile] = await Promise.all([
        sendChunkedFlood({ url: `${brightgrid.origin}${path}`, headers }, FLOOD),
        signInPage(),
      ]);
      // The client reads the refusal (or, had it kept sending past the cap, was reset).
      expect(howRefused(outcome, cap)).toMatch(new RegExp(`^(${status}|reset past the cap)$`));
      // The server stopped taking the body at the cap: no further than the sockets between them hold.
      expect(outcome.bytesSent).toBeLessThan(cap + socketBufferBytes());
      // Its memory stays flat.
      expect(peakResidentMiB(pid) - before).toBeLessThan(100);
      // It keeps serving others, during the flood and after it.
      expect(servedMeanwhile).toBe(200);
      expect(await signInPage()).toBe(200);
    });
  }
});

it('lets curl read the 413 of a 200 MiB upload it streams', async () => {
  const curl = spawn(
    'curl',
    [
      ...['--silent', '--show-error', '--output', '/dev/null', '--write-out', '%{http_code}'],
      ...['--request', 'POST', '--upload-file', '-'],
      ...['--header', 'content-type: application/x-www-form-urlencoded'],
      ...['--header', `origin: ${brightgrid.origin}`],
      `${brightgrid.origin}/signin`,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  curl.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  curl.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // 'close', not 'exit': what curl printed may still be on its way when it has exited.
  const exited = new Promise<number | null>((resolve) => curl.once('close', resolve));
  // curl stops reading its input once it has the answer; the rest is never written.
  curl.stdin.on('error', () => {});
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let written = 0;
  let running = true;
  void exited.then(() => {
    running = false;
  });
  while (running && written < FLOOD) {
    written += chunk.length;
    if (!curl.stdin.write(chunk)) {
      await Promise.race([new Promise((resolve) => curl.stdin.once('drain', resolve)), exited]);
    }
  }
  curl.stdin.end();
  expect({ exit: await exited, status: stdout, stderr }).toEqual({ exit: 0, status: '413', stderr: '' });
  expect(written).toBeLessThan(FLOOD);
});
