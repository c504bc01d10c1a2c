/**
 * A Parley server for the handshake-era fault tests, as a real process. Its one tool asks a question
 * and waits. It reports `server.pendingQuestions` on stderr (`pending=<n>` at every change) and,
 * over HTTP, at `GET /stats` with its memory after a garbage collection (run it with --expose-gc)
 * and its open connections (now, and the most at once).
 *
 * Environment: PENDING_TRANSPORT (`http` | `stdio`), PENDING_TIMEOUT_MS (questionTimeoutMs),
 * PENDING_RESUME_GRACE_MS (how long a dropped call waits for its client to reconnect; 200 here, so
 * the tests of what a drop frees do not wait out the 5 s default), PENDING_PROGRESS_MS
 * (waitingProgressMs). Its log goes to stderr as `log <level>: <message>` lines, every level.
 */
import { ask, createServer } from '@parley/server';

const timeout = Number(process.env.PENDING_TIMEOUT_MS ?? 600_000);
const progressMs = process.env.PENDING_PROGRESS_MS;
const server = createServer({
  name: 'pending',
  version: '1.0.0',
  questionTimeoutMs: timeout,
  ...(progressMs !== undefined && { waitingProgressMs: Number(progressMs) }),
  log: (level, message) => process.stderr.write(`log ${level}: ${message}\n`),
});
server.tool(
  'ask_and_wait',
  { description: 'Asks one question and waits for the answer.' },
  async (_args, ctx) => {
    const answer = await ctx.elicit('Anything to add?', ask.text({ title: 'Note' }), { key: 'note' });
    return answer.action === 'accept' ? `Noted: ${answer.value}` : `No note (${answer.action}).`;
  },
);

let reported = -1;
setInterval(() => {
  if (server.pendingQuestions === reported) return;
  reported = server.pendingQuestions;
  process.stderr.write(`pending=${reported}\n`);
}, 10);

if (process.env.PENDING_TRANSPORT === 'stdio') {
  server.stdio();
  // The client went away: report once nothing is pending any more, then leave.
  process.stdin.once('end', () => {
    const check = setInterval(() => {
      if (server.pendingQuestions > 0) return;
      clearInterval(check);
      process.stderr.write('pending=0 after disconnect\n');
      process.exit(0);
    }, 10);
  });
} else {
  // The default limits: a 2025-era host keeps one response stream open per call in flight and
  // answers each question on another connection, and the listener makes room for both.
  let connections = 0;
  let peakConnections = 0;
  const listening = await server.listen({
    resumeGraceMs: Number(process.env.PENDING_RESUME_GRACE_MS ?? 200),
    routes(request) {
      if (new URL(request.url).pathname !== '/stats') return undefined;
      (globalThis as { gc?: () => void }).gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      return Response.json({ pending: server.pendingQuestions, rss, heapUsed, connections, peakConnections });
    },
  });
  listening.http.on('connection', (socket) => {
    peakConnections = Math.max(peakConnections, ++connections);
    socket.once('close', () => connections--);
  });
  process.stdout.write(`${listening.url}\n`);
  process.once('SIGTERM', () => void listening.close().then(() => process.exit(0)));
}
