import { createHash } from 'node:crypto';

/** What identifies a parked call: the same call of the same caller (user, session, or stdio). */
export interface ParkedCallKey {
  /** Whose call it is: `user:<id>`, `session:<id>`, `stdio`, or an anonymous caller's address. */
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
  });
}

/** Reads a parked call back; `undefined` for anything that is not one. */
export function decodeParkedCall(text: string): ParkedCall | undefined {
  try {
    const record = JSON.parse(text) as { s?: unknown; f?: unknown; u?: unknown };
    if (typeof record.s !== 'string') return undefined;
    return { state: record.s, formsFailed: record.f === 1, urlFailed: record.u === 1 };
  } catch {
    return undefined;
  }
}
