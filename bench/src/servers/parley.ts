import { ask, createServer, type Listening, type ParleyServer } from '@parley/server';
import { telemetry } from '@parley/server/otel';
import * as z from 'zod/v4';
import { keyOf, MAX_QUESTIONS, messageOf, resultText, TOOL } from '../survey.js';
import { BENCH_KEY_BASE64 } from './bench-key.js';
import { countRunning, sideChannel, watchConnections } from './side-channel.js';

export interface ParleyBenchOptions {
  /** How long a 2025-era question waits for its answer (Parley's `questionTimeoutMs`). */
  readonly questionTimeoutMs?: number;
  /** How long a dropped 2025-era call waits for its client to reconnect (Parley's `resumeGraceMs`, HTTP only). */
  readonly resumeGraceMs?: number;
  /**
   * One feature on the round path, for (a)'s feature costs: `use` adds an empty middleware
   * (`server.use((_c, next) => next())`), `otel` adds `telemetry()` with no OpenTelemetry SDK or
   * exporter registered, so its tracer and meter are the API's no-ops.
   */
  readonly feature?: 'use' | 'otel';
  /**
   * 2025-era sessions it keeps open at most, in all and from the load generator's one address
   * (default 100 from one address): (h) parks a call on a session of its own per 2026-07-28 host
   * call, a thousand at once.
   */
  readonly maxSessions?: number;
}

/** The survey tool written with Parley: one linear loop of `ctx.elicit`, on both eras. */
export function parleySurveyServer(options: ParleyBenchOptions = {}): ParleyServer {
  const server = createServer({
    name: 'bench-parley',
    version: '0.1.0',
    state: { keys: `bench:${BENCH_KEY_BASE64}` },
    maxRounds: MAX_QUESTIONS,
    ...(options.questionTimeoutMs !== undefined && { questionTimeoutMs: options.questionTimeoutMs }),
  });
  if (options.feature === 'use') server.use((_c, next) => next());
  if (options.feature === 'otel') server.use(telemetry());
  const question = ask.form({ answer: ask.text() });
  server.tool(
    TOOL,
    {
      description: 'Asks the given number of questions, one per round',
      input: z.object({ questions: z.number().int().min(1).max(MAX_QUESTIONS) }),
    },
    ({ questions }, ctx) =>
      countRunning(async () => {
        const answers: string[] = [];
        for (let index = 0; index < questions; index++) {
          const reply = await ctx.elicit(messageOf(index, questions), question, { key: keyOf(index) });
          if (reply.action !== 'accept') return `Stopped at question ${index + 1} (${reply.action}).`;
          answers.push(reply.value.answer);
        }
        return resultText(answers);
      }),
  );
  return server;
}

/** Serves the Parley survey on loopback HTTP with `server.listen`, plus the bench side channel. */
export async function listenParley(options: ParleyBenchOptions = {}): Promise<Listening> {
  const listening = await parleySurveyServer(options).listen({
    port: 0,
    // Every session comes from the load generator's one address: its anonymous quota is the pool's.
    maxSessionsPerAddress: options.maxSessions ?? 100,
    ...(options.maxSessions !== undefined && {
      maxSessions: options.maxSessions,
      maxAnonymousSessions: options.maxSessions,
    }),
    ...(options.resumeGraceMs !== undefined && { resumeGraceMs: options.resumeGraceMs }),
    routes: async (request) => {
      const answer = sideChannel(new URL(request.url));
      return answer && new Response(await answer, { headers: { 'content-type': 'application/json' } });
    },
  });
  watchConnections(listening.http);
  return listening;
}
