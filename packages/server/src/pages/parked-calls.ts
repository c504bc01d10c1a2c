import { createHash, randomBytes } from 'node:crypto';
import { isRecord, PARLEY_RESUME_META } from '@parley/core';

/** What identifies a parked call: the same call of the same caller (user, session, stdio, or token). */
export interface ParkedCallKey {
  /**
   * Whose call it is: `user:<id>`, `session:<id>`, `stdio`, or `resume:<token>` for an anonymous
   * 2026-07-28 caller (its network address is a budget bucket, never an identity: a NAT, a proxy or an
   * IPv6 /64 holds many callers).
   */
  readonly scope: string;
  /** The call's binding bytes (server, method, target, canonical arguments, user): see `bindingBytes`. */
  readonly binding: Uint8Array;
}

/** A call parked while the person answers on a page: its sealed state, and how its questions went. */
export interface ParkedCall {
  /** The call's round state, sealed and bound to the call like a `requestState`. */
  readonly state: string;
  /** The client failed `elicitation/create` for a form earlier in the call: keep asking on pages. */
  readonly formsFailed: boolean;
  /** The client failed a URL-mode question earlier in the call: keep sending links in results. */
  readonly urlFailed: boolean;
  /** Digests of the links its results carried, for a call parked by address (never given again). */
  readonly shown?: readonly string[];
}

/** The store key of a parked call (a digest: the arguments are not kept in the clear). */
export function parkedCallKey(key: ParkedCallKey): string {
  // The scope's length first: no scope can run on into the binding's bytes.
  const digest = createHash('sha256')
    .update(`${key.scope.length}:${key.scope}`)
    .update(key.binding)
    .digest('base64url');
  return `parked:${digest}`;
}

export function encodeParkedCall(call: ParkedCall): string {
  return JSON.stringify({
    s: call.state,
    ...(call.formsFailed && { f: 1 }),
    ...(call.urlFailed && { u: 1 }),
    ...(call.shown && { p: call.shown }),
  });
}

/** Reads a parked call back; `undefined` for anything that is not one. */
export function decodeParkedCall(text: string): ParkedCall | undefined {
  try {
    const record = JSON.parse(text) as { s?: unknown; f?: unknown; u?: unknown; p?: unknown };
    if (typeof record.s !== 'string') return undefined;
    const shown = Array.isArray(record.p)
      ? record.p.filter((digest) => typeof digest === 'string')
      : undefined;
    return {
      state: record.s,
      formsFailed: record.f === 1,
      urlFailed: record.u === 1,
      ...(shown && { shown }),
    };
  } catch {
    return undefined;
  }
}

/** A new resume token: 192 random bits, handed only to the caller whose call was parked. */
export function newResumeToken(): string {
  return randomBytes(24).toString('base64url');
}

const TOKEN = /^[A-Za-z0-9_-]{32}$/;

/** The resume token a request's `_meta` carries back, when it is one (anything else is ignored). */
export function resumeTokenIn(meta: unknown): string | undefined {
  const token = isRecord(meta) ? meta[PARLEY_RESUME_META] : undefined;
  return typeof token === 'string' && TOKEN.test(token) ? token : undefined;
}

/** Whether a client declared that it carries resume tokens back (`extensions['dev.parley/resume']`). */
export function carriesResumeTokens(capabilities: unknown): boolean {
  const extensions = isRecord(capabilities) ? capabilities.extensions : undefined;
  return isRecord(extensions) && isRecord(extensions[PARLEY_RESUME_META]);
}
