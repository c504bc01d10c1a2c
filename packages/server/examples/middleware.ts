// The middleware examples of the README, as a test runs them (packages/server/test/middleware-examples.test.ts).
import { type Middleware, ToolError } from '@parley/server';

// #region timing
/** Reports how long each request took, and whether the round asked or completed. */
export function timing(record: (line: string) => void): Middleware {
  return async (c, next) => {
    try {
      await next();
    } finally {
      const ended = c.outcome?.type ?? 'error';
      record(
        `${c.method} ${c.name ?? ''} round ${c.round ?? '?'} ${ended} in ${c.elapsedMs().toFixed(1)} ms`,
      );
    }
  };
}
// #endregion timing

// #region logging
/** One JSON line per request: what ran, for whom, which round, and how it ended (never the answers). */
export function structuredLogging(write: (line: string) => void): Middleware {
  return async (c, next) => {
    let outcome = 'error';
    try {
      await next();
      outcome = c.outcome?.type ?? 'complete';
    } finally {
      write(
        JSON.stringify({
          method: c.method,
          name: c.name,
          era: c.era,
          round: c.round,
          firstRound: c.firstRound,
          outcome,
          asked: c.asked,
          user: c.user?.id,
          ms: Math.round(c.elapsedMs()),
        }),
      );
    }
  };
}
// #endregion logging

// #region rate-limit
/**
 * At most `limit` calls per user per window. Only first rounds count: a person answering this
 * call's questions (its continuation rounds) is never throttled half-way.
 */
export function perUserRateLimit(limit: number, windowMs: number): Middleware {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return async (c, next) => {
    if (c.method !== 'tools/call' || !c.firstRound) return next();
    const user = c.user?.id ?? 'anonymous';
    const now = Date.now();
    let window = windows.get(user);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      windows.set(user, window);
    }
    if (++window.count > limit) {
      const seconds = Math.ceil((window.resetAt - now) / 1000);
      throw new ToolError(
        `Too many calls: at most ${limit} per ${windowMs / 1000} s. Try again in ${seconds} s.`,
      );
    }
    await next();
  };
}
// #endregion rate-limit

// #region error-reporter
/**
 * Reports failures to your error tracker. An ask never reaches it: asking the person is a result
 * (c.outcome.type === 'ask'), not an exception.
 */
export function errorReporter(report: (error: unknown, where: string) => void): Middleware {
  return async (c, next) => {
    try {
      await next();
    } catch (error) {
      report(error, `${c.method} ${c.name ?? ''} (round ${c.round ?? '?'})`);
      throw error;
    }
  };
}
// #endregion error-reporter
