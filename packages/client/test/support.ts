// Shared parts of the client's end-to-end tests: the fixture servers as real processes, a fetch that
// records what crossed the wire, and hosts that watch how questions reach them.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AskContext, CallEvent, ElicitationUI } from '@parley/client';
import { scripted } from '@parley/client';

/** Valid answers to the fixture's `profile` form, leaving out `subscribe` and `size` (both defaulted). */
export const PROFILE_ANSWERS = {
  name: 'Ada',
  email: 'ada@example.com',
  website: 'https://ada.dev',
  birthday: '1815-12-10',
  meeting: '2026-07-28T10:00:00Z',
  age: 36,
  height: 1.65,
  plan: 'pro',
  color: 'g',
  toppings: ['cheese', 'olives'],
  extras: ['wifi'],
};

export const fixture = (name: string): string =>
  fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** The fixture server on stdio, as an argv for `connect`. */
export const stdioServer = (...flags: string[]): string[] => ['node', fixture('stdio-server.mjs'), ...flags];

export interface HttpFixture {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts the fixture server over HTTP on a free loopback port. */
export async function startHttpServer(...flags: string[]): Promise<HttpFixture> {
  const child: ChildProcess = spawn('node', [fixture('http-server.mjs'), ...flags], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the HTTP fixture exited with ${code} before listening`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** One JSON-RPC request the client POSTed, and the result or error the server sent back for it. */
export interface WireExchange {
  readonly request: { id: number; method: string; params: Record<string, unknown> };
  readonly headers: Record<string, string>;
  readonly response?: { result?: Record<string, unknown>; error?: unknown };
}

/** A fetch that records every JSON-RPC request and its response (JSON or SSE) as they really went. */
export function recordingFetch(): { fetch: typeof fetch; exchanges: WireExchange[] } {
  const exchanges: WireExchange[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method !== 'POST' || typeof init.body !== 'string') return response;
    const request = JSON.parse(init.body);
    if (request.id === undefined) return response;
    const body = await response.clone().text();
    const messages = response.headers.get('content-type')?.includes('text/event-stream')
      ? body
          .split('\n')
          .filter((line) => line.startsWith('data:') && line.length > 5)
          .map((line) => JSON.parse(line.slice(5)))
      : body
        ? [JSON.parse(body)]
        : [];
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    exchanges.push({ request, headers, response: messages.find((message) => message.id === request.id) });
    return response;
  };
  return { fetch: recording, exchanges };
}

/**
 * A scripted host that also notes how many questions were open at once, and the context and
 * signal of each, so tests can see the one-at-a-time rule and cancellation from the host's side.
 */
export function watchfulUI(
  answers: Parameters<typeof scripted>[0],
  options: Parameters<typeof scripted>[1] = {},
) {
  const inner = scripted(answers, options);
  let open = 0;
  const stats = { mostOpen: 0, contexts: [] as AskContext[] };
  const track = async <T>(context: AskContext, run: () => Promise<T>): Promise<T> => {
    open += 1;
    stats.mostOpen = Math.max(stats.mostOpen, open);
    stats.contexts.push(context);
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return await run();
    } finally {
      open -= 1;
    }
  };
  const ui: ElicitationUI = {
    modes: inner.modes,
    form: (request, context) => track(context, () => inner.form(request, context)),
    url: (request, inspection, context) => track(context, () => inner.url(request, inspection, context)),
    waitForUrl: (request, inspection, context) => inner.waitForUrl!(request, inspection, context),
  };
  return { ui, stats, asked: inner.asked };
}

/** Collects events for `onEvent`, with a short text form that is easy to compare. */
export function eventLog(): {
  onEvent: (event: CallEvent) => void;
  events: CallEvent[];
  lines: () => string[];
} {
  const events: CallEvent[] = [];
  return {
    events,
    onEvent: (event) => events.push(event),
    lines: () =>
      events.map((event) => {
        const detail =
          event.type === 'input-required'
            ? ` [${event.keys.join(',')}] state=${event.stateBytes}`
            : event.type === 'answers'
              ? ` ${event.answers.map((answer) => `${answer.key ?? '?'}=${answer.action}`).join(',')}`
              : event.type === 'result'
                ? ` isError=${event.isError}`
                : event.type === 'skipped'
                  ? ` ${event.key ?? '?'}->${event.answered}`
                  : '';
        return `${event.callId}.${event.round} ${event.type}${detail}`;
      }),
  };
}
