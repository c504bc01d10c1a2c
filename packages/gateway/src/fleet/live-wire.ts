import { isRecord } from '@parley/core';
import { MESSAGE_ID, REPLICA_ID } from '@parley/server/redis';
import type { Resume } from '../held/live-calls.js';
import type { Owner } from '../leg/host-facts.js';
import type { Step, UpstreamAnswer, UpstreamRequest } from '../leg/step.js';

/**
 * The messages gateway replicas exchange over Redis pub/sub to resume a held call on the replica
 * that holds it. Each replica listens on its own channel; a resume (or a cancel) goes to the
 * replica its handle names, and what comes of it (the call's progress and logs meanwhile, then the
 * step) comes back on the sender's channel, under the resume's id. Each travels sealed
 * (`live-bus.ts`); what opens is checked here once more: a peer may be buggy.
 */
export type LiveMessage =
  | {
      readonly t: 'resume';
      readonly id: string;
      /** The replica waiting for the reply (its channel). */
      readonly from: string;
      /** When the sender stops waiting (ms since the epoch): a resume that arrives later is dropped. */
      readonly until: number;
      readonly resume: Resume;
    }
  | {
      /** The host of a held call cancelled it on the sending replica: the holder drops the call. */
      readonly t: 'cancel';
      readonly id: string;
      readonly from: string;
      /** After this (ms since the epoch) the cancel is stale and dropped. */
      readonly until: number;
      readonly handle: string;
      /** Whose call the host says it is (the holder drops only a call of theirs). */
      readonly owner: Owner;
    }
  | {
      /** What the held call said while a resume waits on it, passed to the host (`id`: the resume's). */
      readonly t: 'note';
      readonly id: string;
      readonly from: string;
      /** Counts the resume's notes from 1; a note that does not count up is a copy, and dropped. */
      readonly seq: number;
      readonly note: Note;
    }
  | { readonly t: 'step'; readonly id: string; readonly from: string; readonly step: Step }
  | { readonly t: 'error'; readonly id: string; readonly from: string; readonly error: WireError };

/** What a held call's upstream says while a round waits on it (`LiveListeners`, as it travels). */
export type Note =
  | {
      readonly kind: 'progress';
      readonly progress: number;
      readonly total?: number;
      readonly message?: string;
    }
  | { readonly kind: 'log'; readonly level: string; readonly data: unknown; readonly logger?: string }
  | { readonly kind: 'url-complete'; readonly elicitationId: string };

/** The kinds of message on the bus (each is sealed with its kind in the associated data). */
export const MESSAGE_KINDS: ReadonlySet<string> = new Set(['resume', 'cancel', 'note', 'step', 'error']);
/** Notes one resume may bring back; the holder stops sending, and the waiting replica reading, past it. */
export const MAX_NOTES_PER_RESUME = 1_000;
/** The largest note (its JSON), in characters: a log message larger than this is not passed on. */
export const MAX_NOTE_CHARS = 64 * 1024;
/** The largest cancel (its JSON), in characters. */
export const MAX_CANCEL_CHARS = 2_048;
/** How long a cancel stays good on the bus. */
export const CANCEL_TTL_MS = 30_000;
const LOG_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/** An error the holding replica's resume ended with, as it travels. */
export type WireError =
  /** A tool error (the host reads it as the call's result): its message. */
  | { readonly kind: 'tool'; readonly message: string }
  /** The upstream's own JSON-RPC error. */
  | { readonly kind: 'protocol'; readonly code: number; readonly message: string; readonly data?: unknown }
  /** Anything else: what went wrong, in one line. */
  | { readonly kind: 'failed'; readonly message: string };

/** A message read from the bus, or why it was dropped (never its text: it is not ours to log). */
export type Received = { readonly message: LiveMessage } | { readonly dropped: string };

// A replica id has no dots (a handle is `<replica>.<secret>`); a resume's id names its notes and reply too.
export { MESSAGE_ID, REPLICA_ID };

const HANDLE = /^[A-Za-z0-9_-]{1,100}\.[A-Za-z0-9_-]{16,128}$/;
const KEY = /^[\w.-]{1,64}$/;
/** The protocol revision a held call's session speaks, e.g. `2025-11-25`. */
const REVISION = /^\d{4}-\d{2}-\d{2}$/;
/** The longest a resume may ask the holder to wait for the call's next step. */
export const MAX_HOLD_MS = 120_000;
/** Questions one round may carry (as the gateway takes them from an upstream). */
const MAX_KEYS = 100;
const MAX_TEXT = 10_000;

/** Reads one message from the bus; anything that is not exactly one of ours is dropped, with why. */
export function readLiveMessage(text: string, maxChars: number): Received {
  if (text.length > maxChars)
    return { dropped: `a message of ${text.length} characters (at most ${maxChars})` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { dropped: 'a message that is not JSON' };
  }
  if (!isRecord(value)) return { dropped: 'a message that is not an object' };
  const { t, id, from } = value;
  if (typeof id !== 'string' || !MESSAGE_ID.test(id)) return { dropped: 'a message without a valid id' };
  if (typeof from !== 'string' || !REPLICA_ID.test(from))
    return { dropped: 'a message without a valid sender' };
  switch (t) {
    case 'resume': {
      if (typeof value.until !== 'number' || !Number.isFinite(value.until))
        return { dropped: 'a resume without a deadline' };
      const resume = readResume(value.resume);
      if (typeof resume === 'string') return { dropped: `a resume ${resume}` };
      return { message: { t, id, from, until: value.until, resume } };
    }
    case 'cancel': {
      if (text.length > MAX_CANCEL_CHARS)
        return { dropped: `a cancel of ${text.length} characters (at most ${MAX_CANCEL_CHARS})` };
      if (typeof value.until !== 'number' || !Number.isFinite(value.until))
        return { dropped: 'a cancel without a deadline' };
      const { handle, owner } = value;
      if (typeof handle !== 'string' || !HANDLE.test(handle))
        return { dropped: 'a cancel without a valid handle' };
      if (owner !== null && (typeof owner !== 'string' || owner.length > 1_000))
        return { dropped: 'a cancel with an invalid owner' };
      return {
        message: { t, id, from, until: value.until, handle, owner: owner === null ? undefined : owner },
      };
    }
    case 'note': {
      if (text.length > MAX_NOTE_CHARS + 200)
        return { dropped: `a note of ${text.length} characters (at most ${MAX_NOTE_CHARS + 200})` };
      const { seq } = value;
      if (!Number.isSafeInteger(seq) || (seq as number) < 1)
        return { dropped: 'a note without a valid count' };
      const note = readNote(value.note);
      if (note === undefined)
        return { dropped: 'a note that is not progress, a log message or a URL completion' };
      return { message: { t, id, from, seq: seq as number, note } };
    }
    case 'step': {
      const step = readStep(value.step);
      if (typeof step === 'string') return { dropped: `a step ${step}` };
      return { message: { t, id, from, step } };
    }
    case 'error': {
      const error = readError(value.error);
      if (error === undefined) return { dropped: 'an error reply that is not { kind, message }' };
      return { message: { t, id, from, error } };
    }
    default:
      return { dropped: 'a message of an unknown type' };
  }
}

function readResume(value: unknown): Resume | string {
  if (!isRecord(value)) return 'that is not an object';
  const { handle, owner, round, answers, holdMs } = value;
  if (typeof handle !== 'string' || !HANDLE.test(handle)) return 'without a valid handle';
  if (owner !== null && (typeof owner !== 'string' || owner.length > 1_000)) return 'with an invalid owner';
  if (!Number.isSafeInteger(round) || (round as number) < 0) return 'with an invalid round';
  if (typeof holdMs !== 'number' || !(holdMs >= 0 && holdMs <= MAX_HOLD_MS))
    return `with a hold outside 0 to ${MAX_HOLD_MS} ms`;
  let read: Record<string, UpstreamAnswer> | undefined;
  if (answers !== undefined && answers !== null) {
    if (!isRecord(answers)) return 'whose answers are not an object';
    const entries = Object.entries(answers);
    if (entries.length > MAX_KEYS) return `with more than ${MAX_KEYS} answers`;
    read = {};
    for (const [key, answer] of entries) {
      if (!KEY.test(key) || !isAnswer(answer)) return 'with an answer that is not { result } or { error }';
      read[key] = answer;
    }
  }
  return {
    handle,
    owner: owner === null ? undefined : owner,
    round: round as number,
    answers: read,
    holdMs,
  };
}

function isAnswer(value: unknown): value is UpstreamAnswer {
  if (!isRecord(value)) return false;
  if ('result' in value) return Object.keys(value).length === 1 && isRecord(value.result);
  return (
    Object.keys(value).length === 1 &&
    isRecord(value.error) &&
    Number.isSafeInteger(value.error.code) &&
    typeof value.error.message === 'string'
  );
}

/** A held call's step: its result, its next questions, or `wait`, always naming the call by its handle (and its session's revision). */
function readStep(value: unknown): Step | string {
  if (!isRecord(value)) return 'that is not an object';
  if (value.kind === 'result')
    return isRecord(value.result) ? (value as Step) : 'whose result is not an object';
  if (value.kind !== 'ask' && value.kind !== 'wait') return 'of an unknown kind';
  const via = value.via;
  if (
    !isRecord(via) ||
    via.kind !== 'live' ||
    typeof via.handle !== 'string' ||
    !HANDLE.test(via.handle) ||
    !Number.isSafeInteger(via.round) ||
    typeof via.revision !== 'string' ||
    !REVISION.test(via.revision)
  )
    return 'that does not name a held call';
  const live = {
    kind: 'live',
    handle: via.handle,
    round: via.round as number,
    revision: via.revision,
  } as const;
  if (value.kind === 'wait') return { kind: 'wait', via: live };
  if (!isRecord(value.requests)) return 'whose questions are not an object';
  const entries = Object.entries(value.requests);
  if (entries.length === 0 || entries.length > MAX_KEYS) return `with 0 or more than ${MAX_KEYS} questions`;
  const requests: Record<string, UpstreamRequest> = {};
  for (const [key, request] of entries) {
    if (
      !KEY.test(key) ||
      !isRecord(request) ||
      typeof request.method !== 'string' ||
      request.method.length > 100 ||
      (request.params !== undefined && !isRecord(request.params))
    )
      return 'with a question that is not { method, params }';
    requests[key] = request as unknown as UpstreamRequest;
  }
  return { kind: 'ask', requests, via: live };
}

function readNote(value: unknown): Note | undefined {
  if (!isRecord(value)) return undefined;
  const optionalText = (text: unknown, max: number) =>
    text === undefined || (typeof text === 'string' && text.length <= max);
  switch (value.kind) {
    case 'progress': {
      const { progress, total, message } = value;
      if (
        typeof progress !== 'number' ||
        !Number.isFinite(progress) ||
        (total !== undefined && (typeof total !== 'number' || !Number.isFinite(total))) ||
        !optionalText(message, MAX_NOTE_CHARS)
      )
        return undefined;
      return {
        kind: 'progress',
        progress,
        ...(total !== undefined && { total: total as number }),
        ...(message !== undefined && { message: message as string }),
      };
    }
    case 'log': {
      const { level, data, logger } = value;
      if (typeof level !== 'string' || !LOG_LEVELS.has(level) || !optionalText(logger, 200)) return undefined;
      return { kind: 'log', level, data, ...(logger !== undefined && { logger: logger as string }) };
    }
    case 'url-complete':
      return typeof value.elicitationId === 'string' && value.elicitationId.length <= 200
        ? { kind: 'url-complete', elicitationId: value.elicitationId }
        : undefined;
    default:
      return undefined;
  }
}

function readError(value: unknown): WireError | undefined {
  if (!isRecord(value) || typeof value.message !== 'string') return undefined;
  const message = value.message.slice(0, MAX_TEXT);
  if (value.kind === 'tool' || value.kind === 'failed') return { kind: value.kind, message };
  if (value.kind === 'protocol' && Number.isSafeInteger(value.code))
    return {
      kind: 'protocol',
      code: value.code as number,
      message,
      ...(value.data !== undefined && { data: value.data }),
    };
  return undefined;
}

/** A resume as it travels (an absent owner or answers as `null`, so JSON keeps them apart from a typo). */
export function resumeOnWire(resume: Resume): Record<string, unknown> {
  return {
    handle: resume.handle,
    owner: resume.owner ?? null,
    round: resume.round,
    answers: resume.answers ?? null,
    holdMs: resume.holdMs,
  };
}
