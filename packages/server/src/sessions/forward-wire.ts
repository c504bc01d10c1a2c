import { isRecord } from '@parley/core';
import type { BusFormat, BusRead } from '../fleet-bus/bus-seal.js';

/**
 * The messages replicas exchange over Redis pub/sub to pass an HTTP request for a 2025-era session
 * to the replica that holds it, and to stream its response back. Each replica listens on its own
 * channel; bytes travel as base64 so chunk boundaries never split a character. Each travels sealed
 * (`SESSION_BUS`); what opens is checked here once more: a peer may be buggy.
 */
export type ForwardMessage =
  | {
      readonly t: 'req';
      readonly id: string;
      /** The replica waiting for the response (its channel). */
      readonly from: string;
      readonly method: string;
      readonly url: string;
      readonly headers: readonly (readonly [string, string])[];
      readonly body?: string;
      /**
       * When the sender stops waiting (ms since the epoch): a request that arrives later (e.g. held
       * in a queue while Redis restarted) is dropped, never served after its client was told it failed.
       */
      readonly until: number;
    }
  | {
      /** The client of a passed request went away: the owner stops serving it (`req`: its id). */
      readonly t: 'cancel';
      readonly id: string;
      readonly from: string;
      readonly req: string;
      /** After this (ms since the epoch) the cancel is stale and dropped. */
      readonly until: number;
    }
  | {
      readonly t: 'head';
      readonly id: string;
      readonly from: string;
      readonly status: number;
      readonly headers: readonly (readonly [string, string])[];
      readonly hasBody: boolean;
    }
  | {
      readonly t: 'data';
      readonly id: string;
      readonly from: string;
      readonly seq: number;
      readonly chunk: string;
    }
  | { readonly t: 'end'; readonly id: string; readonly from: string; readonly seq: number }
  | { readonly t: 'fail'; readonly id: string; readonly from: string; readonly message: string };

/** The kinds of message on the session bus. */
const KINDS: ReadonlySet<string> = new Set(['req', 'cancel', 'head', 'data', 'end', 'fail']);
const METHODS = new Set(['GET', 'POST', 'DELETE']);
const MAX_URL = 8_192;
const MAX_HEADERS = 200;
const MAX_FAIL_TEXT = 2_000;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The 2025-era session bus (`BusSeal`): `ps1.<kind>.<id>.<from>.<token>`, keys derived from the
 * server's state keys with a salt of its own.
 */
export const SESSION_BUS: BusFormat<ForwardMessage> = {
  name: 'session bus',
  version: 'ps1',
  salt: 'parley/server/session-bus/v1',
  label: 'parley-session-bus/1',
  kinds: KINDS,
  keysSetting: 'stateKeys / PARLEY_STATE_KEYS',
  read: readForwardMessage,
};

// Hop-by-hop and length headers belong to one connection, not to the request passed on.
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

/** A request's or response's headers, fit to pass on. */
export function headersToPass(headers: Headers): [string, string][] {
  const pairs: [string, string][] = [];
  headers.forEach((value, name) => {
    if (!CONNECTION_HEADERS.has(name)) pairs.push([name, value]);
  });
  return pairs;
}

/** Reads one message (its JSON); anything that is not exactly one of ours is dropped, with why. */
export function readForwardMessage(text: string, maxChars: number): BusRead<ForwardMessage> {
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
  if (typeof id !== 'string' || typeof from !== 'string')
    return { dropped: 'a message without an id or a sender' };
  switch (t) {
    case 'req': {
      const { method, url, headers, body, until } = value;
      if (typeof method !== 'string' || !METHODS.has(method))
        return { dropped: 'a request whose method is not GET, POST or DELETE' };
      if (typeof url !== 'string' || url.length > MAX_URL || !URL.canParse(url))
        return { dropped: 'a request without a valid URL' };
      const pairs = readHeaders(headers);
      if (pairs === undefined) return { dropped: 'a request whose headers are not name and value pairs' };
      if (body !== undefined && (typeof body !== 'string' || !BASE64.test(body)))
        return { dropped: 'a request whose body is not base64' };
      if (!isTime(until)) return { dropped: 'a request without a deadline' };
      return {
        message: { t, id, from, method, url, headers: pairs, ...(body !== undefined && { body }), until },
      };
    }
    case 'cancel':
      if (typeof value.req !== 'string' || !isTime(value.until))
        return { dropped: 'a cancel without a request or a deadline' };
      return { message: { t, id, from, req: value.req, until: value.until } };
    case 'head': {
      const { status, headers, hasBody } = value;
      const pairs = readHeaders(headers);
      if (!Number.isSafeInteger(status) || (status as number) < 200 || (status as number) > 599)
        return { dropped: 'a response head without a valid status' };
      if (pairs === undefined || typeof hasBody !== 'boolean')
        return { dropped: 'a response head whose headers or body flag are not valid' };
      return { message: { t, id, from, status: status as number, headers: pairs, hasBody } };
    }
    case 'data':
      if (!isCount(value.seq) || typeof value.chunk !== 'string' || !BASE64.test(value.chunk))
        return { dropped: 'a part of a response without a count or base64 bytes' };
      return { message: { t, id, from, seq: value.seq, chunk: value.chunk } };
    case 'end':
      if (!isCount(value.seq)) return { dropped: 'the end of a response without a count' };
      return { message: { t, id, from, seq: value.seq } };
    case 'fail':
      if (typeof value.message !== 'string') return { dropped: 'a failure without a message' };
      return { message: { t, id, from, message: value.message.slice(0, MAX_FAIL_TEXT) } };
    default:
      return { dropped: 'a message of an unknown type' };
  }
}

function readHeaders(value: unknown): [string, string][] | undefined {
  if (!Array.isArray(value) || value.length > MAX_HEADERS) return undefined;
  const pairs: [string, string][] = [];
  for (const pair of value) {
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      typeof pair[0] !== 'string' ||
      !TOKEN.test(pair[0]) ||
      typeof pair[1] !== 'string' ||
      /[\r\n\0]/.test(pair[1])
    )
      return undefined;
    pairs.push([pair[0], pair[1]]);
  }
  return pairs;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}
