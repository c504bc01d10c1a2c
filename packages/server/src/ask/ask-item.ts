import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  InputRequest,
  Root,
} from '@modelcontextprotocol/server';
import type { PreparedQuestion } from '@parley/core/form';
import type { FlowKit } from '../flows/flow-kit.js';
import { canonicalJson } from '../state/canonical-json.js';
import type { Json } from '../state/round-state.js';
import { fingerprint } from './fingerprint.js';

/** One question inside an ask point, with the key it travels under. */
export type AskItem =
  | {
      readonly kind: 'form';
      readonly key: string;
      readonly message: string;
      readonly question: PreparedQuestion<unknown>;
    }
  | {
      readonly kind: 'url';
      readonly key: string;
      readonly message: string;
      readonly url: string;
      readonly flow?: FlowRef;
    }
  | { readonly kind: 'sampling'; readonly key: string; readonly params: CreateMessageRequestParams }
  | { readonly kind: 'roots'; readonly key: string };

/** A URL item backed by a flow of this server: its completion is checked on the server. */
export interface FlowRef {
  readonly id: string;
  readonly kit: FlowKit;
  readonly principal: string;
}

/** What a handler receives for one item. */
export type FormOutcome = { action: 'accept'; value: unknown } | { action: 'decline' } | { action: 'cancel' };
export type UrlOutcome = { action: 'accept' } | { action: 'decline' } | { action: 'cancel' };
export type ItemResult = FormOutcome | UrlOutcome | CreateMessageResult | Root[];

/**
 * An ask point: one place in the handler where it waits for the person (or the client). A single
 * `ctx.elicit` is a point of one item; `ctx.elicitAll` a batch of several asked in one round.
 */
export interface AskPoint {
  readonly fingerprint: number;
  readonly items: readonly AskItem[];
  readonly batch: boolean;
  /** A short description for errors ("form 'q2': Pickup date?"). */
  readonly label: string;
}

const schemaText = new WeakMap<object, string>();

function itemFingerprintText(item: AskItem): string {
  switch (item.kind) {
    case 'form': {
      let text = schemaText.get(item.question);
      if (text === undefined) {
        text = canonicalJson(item.question.schema);
        schemaText.set(item.question, text);
      }
      return `form\0${item.key}\0${item.message}\0${text}`;
    }
    case 'url':
      return `url\0${item.key}\0${item.message}\0${item.url}`;
    case 'sampling':
      return `sampling\0${item.key}\0${canonicalJson(item.params)}`;
    case 'roots':
      return `roots\0${item.key}`;
  }
}

export function askPoint(items: readonly AskItem[], batch: boolean): AskPoint {
  const first = items[0]!;
  const label = batch
    ? `batch of ${items.map((item) => `'${item.key}'`).join(', ')}`
    : `${first.kind} '${first.key}'${'message' in first ? `: ${first.message}` : ''}`;
  return {
    fingerprint: fingerprint(batch ? 'batch' : 'one', ...items.map(itemFingerprintText)),
    items,
    batch,
    label,
  };
}

/** The `inputRequests` entry (2026-07-28) or the request params (2025 eras) for one item. */
export function toInputRequest(item: AskItem, message?: string): InputRequest {
  switch (item.kind) {
    case 'form':
      return {
        method: 'elicitation/create',
        params: { mode: 'form', message: message ?? item.message, requestedSchema: item.question.schema },
      } as InputRequest;
    case 'url':
      return {
        method: 'elicitation/create',
        params: { mode: 'url', message: item.message, url: item.url },
      } as InputRequest;
    case 'sampling':
      return { method: 'sampling/createMessage', params: item.params } as InputRequest;
    case 'roots':
      return { method: 'roots/list', params: {} } as InputRequest;
  }
}

/**
 * Journal encoding of one item's result: short, because the state carries it on every round.
 * Decline is `'d'`, cancel `'c'`, a URL consent `'a'`; an accepted form is its field values in
 * property order (the question, known again on replay, supplies the names; `null` for a field left
 * out); any other accepted answer is `[value]` (a bare field's value may itself be a string).
 */
export function encodeResult(item: AskItem, result: ItemResult): Json {
  if (item.kind === 'form' || item.kind === 'url') {
    const outcome = result as FormOutcome;
    if (outcome.action === 'decline') return 'd';
    if (outcome.action === 'cancel') return 'c';
    if (item.kind === 'url' && !item.flow) return 'a';
    const value = (outcome as { value: unknown }).value;
    if (item.kind === 'form' && !item.question.wrapped) return packForm(item.question, value);
    return value === undefined ? [] : [value as Json];
  }
  return result as unknown as Json;
}

export function decodeResult(item: AskItem, encoded: Json): ItemResult {
  if (item.kind === 'form' || item.kind === 'url') {
    if (encoded === 'd') return { action: 'decline' };
    if (encoded === 'c') return { action: 'cancel' };
    if (item.kind === 'url' && !item.flow) return { action: 'accept' };
    if (item.kind === 'form' && !item.question.wrapped)
      return { action: 'accept', value: unpackForm(item.question, encoded) };
    return { action: 'accept', value: (encoded as Json[])[0] };
  }
  return encoded as unknown as ItemResult;
}

const fieldNames = new WeakMap<PreparedQuestion<unknown>, readonly string[]>();

function namesOf(question: PreparedQuestion<unknown>): readonly string[] {
  let names = fieldNames.get(question);
  if (!names) {
    names = Object.keys(question.schema.properties);
    fieldNames.set(question, names);
  }
  return names;
}

/** A form's answer as values in property order, when it is exactly the form's fields (zod may reshape it). */
function packForm(question: PreparedQuestion<unknown>, value: unknown): Json {
  const names = namesOf(question);
  const plain =
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).every((key) => names.includes(key));
  if (!plain) return { v: value as Json }; // zod reshaped the answer: keep it whole
  const record = value as Record<string, Json>;
  return names.map((name) => record[name] ?? null);
}

function unpackForm(question: PreparedQuestion<unknown>, packed: Json): unknown {
  if (!Array.isArray(packed)) return (packed as { v?: Json }).v;
  const names = namesOf(question);
  const record: Record<string, Json> = {};
  packed.forEach((value, index) => {
    if (value !== null && index < names.length) record[names[index]!] = value;
  });
  return record;
}
