import type { FetchLike } from '@modelcontextprotocol/client';
import type { CallEvent } from './events.js';
import { type ClientLimits, DEFAULT_LIMITS } from './limits.js';
import type { ElicitationUI } from './types.js';

/**
 * Options for {@link connect}. Only `ui` is required.
 *
 * @example
 * import { terminalUI } from '@parley/client/terminal';
 *
 * await connect('https://shop.example.com/mcp', {
 *   ui: terminalUI(),
 *   headers: { Authorization: `Bearer ${process.env.SHOP_TOKEN}` },
 *   onEvent: (event) => console.error(event.type, event.callId, event.round),
 * });
 */
export interface ConnectOptions {
  /** Puts each question in front of a person: `terminalUI()`, `scripted(...)`, or your own host. */
  ui: ElicitationUI;
  /** How the client names itself to servers. Default: `{ name: 'parley', version: <package version> }`. */
  clientInfo?: { name: string; version: string };
  /** `auto` (default): modern first, handshake when the server does not speak 2026-07-28. */
  era?: 'auto' | 'modern' | 'handshake';
  /**
   * stdio with era `auto`: how long the server may stay silent on the 2026-07-28 `server/discover`
   * probe before it counts as a 2025-era server. Default 10 seconds. A connection that fell back this
   * way says so in `client.eraNotice`.
   */
  discoverTimeoutMs?: number;
  /** Rounds one call may take before it fails with `round-limit`. Default 20. */
  maxRounds?: number;
  /** How long one question may stay unanswered before it is answered `cancel`. Default 10 minutes. */
  questionTimeoutMs?: number;
  /**
   * How long a server may take to answer one request, not counting time the person spends on its
   * questions. Default 60 seconds.
   */
  requestTimeoutMs?: number;
  /**
   * Caps on what one server may send: questions per round, fields per form, message length and
   * result size (see `DEFAULT_LIMITS`). A server past one ends its call with a `too-large` error.
   */
  limits?: Partial<ClientLimits>;
  /** Every step of every call, for logs and timelines. A throwing listener is ignored. */
  onEvent?: (event: CallEvent) => void;
  /** stdio: extra environment for the server process, on top of the SDK's safe default set. */
  env?: Record<string, string>;
  /** stdio: working directory of the server process. */
  cwd?: string;
  /** stdio: the server's stderr: `inherit` (default), `ignore`, or a function that gets each line. */
  stderr?: 'inherit' | 'ignore' | ((line: string) => void);
  /** HTTP: headers sent with every request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** HTTP: the fetch implementation to use. */
  fetch?: FetchLike;
}

/** The options with every default filled in. */
export interface Settings {
  readonly maxRounds: number;
  readonly questionTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly limits: ClientLimits;
}

/** How many `input_required` rounds one call may take before the client stops it (`maxRounds`). */
export const DEFAULT_MAX_ROUNDS = 20;
/** How long the client waits for the person to answer one question (`questionTimeoutMs`): 10 minutes. */
export const DEFAULT_QUESTION_TIMEOUT_MS = 10 * 60_000;
/** How long the client waits for the server to answer one request (`requestTimeoutMs`): 60 seconds. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${name} must be a positive number; got ${String(value)}`);
  }
  return value;
}

export function resolveSettings(options: ConnectOptions): Settings {
  return {
    maxRounds: Math.floor(positive(options.maxRounds, DEFAULT_MAX_ROUNDS, 'maxRounds')),
    questionTimeoutMs: positive(options.questionTimeoutMs, DEFAULT_QUESTION_TIMEOUT_MS, 'questionTimeoutMs'),
    requestTimeoutMs: positive(options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS, 'requestTimeoutMs'),
    limits: {
      questionsPerRound: Math.floor(
        positive(
          options.limits?.questionsPerRound,
          DEFAULT_LIMITS.questionsPerRound,
          'limits.questionsPerRound',
        ),
      ),
      fieldsPerForm: Math.floor(
        positive(options.limits?.fieldsPerForm, DEFAULT_LIMITS.fieldsPerForm, 'limits.fieldsPerForm'),
      ),
      messageLength: Math.floor(
        positive(options.limits?.messageLength, DEFAULT_LIMITS.messageLength, 'limits.messageLength'),
      ),
      resultBytes: Math.floor(
        positive(options.limits?.resultBytes, DEFAULT_LIMITS.resultBytes, 'limits.resultBytes'),
      ),
    },
  };
}
