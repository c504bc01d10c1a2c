/**
 * How much one server may put in front of the person or hand to the host. A server past a limit
 * ends the call with a `too-large` error that names the limit; nothing of it is shown.
 */
export interface ClientLimits {
  /** Questions in one round (modern), or URLs in one URL-required error (2025-11-25). Default 20. */
  readonly questionsPerRound: number;
  /** Fields in one form. Default 100. */
  readonly fieldsPerForm: number;
  /** Characters in one question's message, and in a URL question's URL. Default 10,000. */
  readonly messageLength: number;
  /** Bytes of one result (as JSON, UTF-8), `input_required` results included. Default 16 MiB. */
  readonly resultBytes: number;
}

/** Room for any real form or result, and far from the 500 questions, 5,000 fields or 60 MB an attacker sent. */
export const DEFAULT_LIMITS: ClientLimits = {
  questionsPerRound: 20,
  fieldsPerForm: 100,
  messageLength: 10_000,
  resultBytes: 16 * 1024 * 1024,
};
