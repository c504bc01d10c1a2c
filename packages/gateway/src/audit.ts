/**
 * One question that crossed the gateway: who asked, in which call, how it reached the person and
 * how it ended. Never the question's answers, nor its message (it may quote the person).
 */
export interface QuestionAudit {
  readonly type: 'question';
  /** When the question was put to the host (ISO 8601). */
  readonly at: string;
  readonly upstream: string;
  /** The call it belongs to: `tools/call`, `prompts/get` or `resources/read`, and the host's name for it. */
  readonly method: string;
  readonly name: string;
  /** The question's key in its round. */
  readonly key: string;
  readonly mode: 'form' | 'url' | 'sampling' | 'roots' | 'unknown';
  /** The host's protocol revision and the upstream's, e.g. `2026-07-28 > 2025-11-25`. */
  readonly pairing: string;
  /** `accept`, `decline` or `cancel` as the person answered; `refused` when the gateway answered itself; `error`. */
  readonly outcome: 'accept' | 'decline' | 'cancel' | 'refused' | 'error';
  /** How long the person (or the host) took, in milliseconds. */
  readonly waitMs: number;
  /**
   * Where the gateway took the question instead of the host's own form: `page` (a secret, or a
   * form the host cannot show, asked on the gateway's question page), or `refused` (with `reason`).
   */
  readonly fallback?: 'page' | 'refused';
  readonly reason?: string;
  /** The verified user, when the host's request had one. */
  readonly user?: string;
}

/** Where audit events go (`createGateway({ onAudit })`); by default one JSON line each in the gateway's log. */
export type AuditSink = (event: QuestionAudit) => void;
