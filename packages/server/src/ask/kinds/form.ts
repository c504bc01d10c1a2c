import type { ElicitRequestFormParams, InputRequest, StandardSchemaV1 } from '@modelcontextprotocol/server';
import { isRecord, PARLEY_KEY_META } from '@parley/core';
import { elicitationModes } from '@parley/core/capabilities';
import {
  liberalContent,
  listFields,
  type PreparedQuestion,
  prepareQuestion,
  type QuestionInput,
  type RequestedSchema,
  schemaForProtocolVersion,
  sensitiveFields,
} from '@parley/core/form';
import type { LoweredForm, RaisedContent } from '@parley/core/hosts';
import type { ElicitOutcome } from '../../ask-types.js';
import { AuthorError, SecretInFormError, ToolError } from '../../errors.js';
import { canonicalJson } from '../../state/canonical-json.js';
import type { Json } from '../../state/round-state.js';
import { CallHost } from '../call-host.js';
import { refuseSecretInMessage, requireMessage, warnIfEmptyForm } from '../guardrails.js';
import type { QuestionKind } from '../question-kind.js';
import { readElicitReply } from '../responses.js';
import { refuseVagueMessage } from '../vague-message.js';
import { decodeRefusal, encodeRefusal, malformed } from './elicit-reply.js';

/** A form question: the person fills in fields (`ctx.elicit`, `input.elicit`). */
export type FormItem = {
  readonly kind: 'form';
  readonly key: string;
  readonly message: string;
  readonly question: PreparedQuestion<unknown>;
  /** The call's client, when a host profile knows it: the form is lowered for it, its answer raised. */
  readonly host?: CallHost | undefined;
};

const checkedForSecrets = new WeakSet<PreparedQuestion<unknown>>();

/**
 * Prepares a form question, refusing one that asks for a secret in a field not built with
 * `ask.secret()` (those are answered only on a page of the server).
 */
export function formQuestion(question: QuestionInput): PreparedQuestion<unknown> {
  const prepared = prepareQuestion(question);
  if (!checkedForSecrets.has(prepared)) {
    const secrets = sensitiveFields(prepared.schema).filter(
      (field) => !prepared.secretFields.includes(field.name),
    );
    if (secrets.length > 0) throw new SecretInFormError(secrets);
    checkedForSecrets.add(prepared);
  }
  return prepared;
}

/** A form question's message and question, checked before anything is sent or any page opened. */
export function checkedFormEntry(entry: Readonly<Record<string, unknown>>): {
  readonly message: string;
  readonly question: PreparedQuestion<unknown>;
} {
  const message = requireMessage('form', entry.message);
  refuseVagueMessage('form', message, entry.allowVagueMessage);
  const question = formQuestion(entry.question as QuestionInput);
  // A question with an ask.secret() field is answered on a page: its message may well ask for it.
  if (question.secretFields.length === 0) refuseSecretInMessage(message, entry.mentionsSecret === true);
  warnIfEmptyForm(question);
  return { message, question };
}

const EXPECTED = 'an ElicitResult ({ action: "accept" | "decline" | "cancel", content? })';

/**
 * The answer to a form question is taken as it came and checked by `check` below: the SDK's own
 * result schema would turn a Python client's `null` for an empty field, or an object where a value
 * belongs, into an internal error that ends the call, where Parley reads the first as empty and asks
 * again with the reason for the second (as it does on 2026-07-28). A pass-through Standard Schema
 * (all the SDK calls is `~standard.validate`), so the server needs no zod at runtime.
 */
const ANY_REPLY: StandardSchemaV1<unknown> = {
  '~standard': { version: 1, vendor: 'parley', validate: (value) => ({ value }) },
};
const schemaText = new WeakMap<object, string>();

/** A question's schema as canonical JSON, worked out once per question (it goes into fingerprints). */
export function questionText(question: PreparedQuestion<unknown>): string {
  let text = schemaText.get(question);
  if (text === undefined) {
    text = canonicalJson(question.schema);
    schemaText.set(question, text);
  }
  return text;
}
const fieldNames = new WeakMap<PreparedQuestion<unknown>, readonly string[]>();

/**
 * A schema as a 2025 revision takes it, adapted once per schema and revision and shared by every
 * call that asks it (it is only serialized, as the prepared schema is on 2026-07-28): a pending
 * question then holds no copy of its own. Keyed by the schema object: a question's own (frozen)
 * schema, or the one a host profile lowered it to (kept per question by its `CallHost`).
 */
const handshakeSchemas = new WeakMap<object, Map<string, ReturnType<typeof schemaForProtocolVersion>>>();

function handshakeSchema(schema: RequestedSchema, protocolVersion: string) {
  let byVersion = handshakeSchemas.get(schema);
  if (byVersion === undefined) {
    byVersion = new Map();
    handshakeSchemas.set(schema, byVersion);
  }
  let adapted = byVersion.get(protocolVersion);
  if (adapted === undefined) {
    adapted = schemaForProtocolVersion(schema, protocolVersion);
    byVersion.set(protocolVersion, adapted);
  }
  return adapted;
}

/** Whether a client of `protocolVersion` can be shown this form in-band (2025-06-18 has no multi-select). */
export function fitsRevision(schema: RequestedSchema, protocolVersion: string): boolean {
  return handshakeSchema(schema, protocolVersion).ok;
}

/** Why a form cannot be shown in-band on `protocolVersion`, as the caller reads it. */
export function revisionRefusal(schema: RequestedSchema, protocolVersion: string): ToolError {
  const adapted = handshakeSchema(schema, protocolVersion);
  const problems = adapted.ok ? [] : adapted.problems.map((problem) => problem.message);
  return new ToolError(`This question cannot be asked on protocol ${protocolVersion}: ${problems.join(' ')}`);
}

/** Why this host cannot be shown a form, as the caller reads it. */
export function hostRefusal(host: CallHost, lowered: LoweredForm): ToolError {
  const reasons = lowered.ok ? [] : lowered.reasons.map((reason) => reason.text);
  return new ToolError(
    `${host.profile.title} cannot be shown this question (${reasons.join('; ')}), and it cannot be asked on a page here.`,
  );
}

/** The form as this item's host is sent it: lowered for a profiled host, else as the author wrote it. */
export function sentSchema(item: Pick<FormItem, 'question' | 'host'>): RequestedSchema {
  const lowered = item.host?.form(item.question);
  return lowered?.ok ? lowered.schema : item.question.schema;
}

export const formKind: QuestionKind<FormItem> = {
  name: 'form',
  capability: {
    required: { elicitation: { form: {} } },
    declared: (capabilities, protocolVersion) => elicitationModes(capabilities, protocolVersion).form,
    steer:
      'this client did not declare elicitation (form mode); ask the caller for the value in a tool argument instead, or use a host that supports elicitation',
  },
  item(key, entry) {
    const { message, question } = checkedFormEntry(entry);
    // ctx.elicit and ctx.elicitAll send such a question to a page; only guard style comes here.
    if (question.secretFields.length > 0)
      throw new AuthorError(
        'A question with ask.secret() is answered on a page of this server, which guard style (inputRequired) ' +
          'cannot send: ask it with ctx.elicit() or ctx.elicitAll().',
      );
    const host = entry.host instanceof CallHost ? entry.host : undefined;
    if (host) {
      const lowered = host.form(question);
      // Guard style has no page to send it to: the handler learns why.
      if (!lowered.ok) throw hostRefusal(host, lowered);
      return { kind: 'form', key, message, question, host };
    }
    return { kind: 'form', key, message, question };
  },
  fingerprintText: (item) => `form\0${item.key}\0${item.message}\0${questionText(item.question)}`,
  request: {
    modern: (item, message) =>
      ({
        method: 'elicitation/create',
        params: { mode: 'form', message, requestedSchema: sentSchema(item) },
      }) as InputRequest,
    handshake(item, message, protocolVersion) {
      const schema = sentSchema(item);
      const adapted = handshakeSchema(schema, protocolVersion);
      // A ToolError, so the caller learns why instead of getting an internal error with a reference.
      if (!adapted.ok) throw revisionRefusal(schema, protocolVersion);
      const requestedSchema = adapted.schema as ElicitRequestFormParams['requestedSchema'];
      const params: ElicitRequestFormParams = {
        mode: 'form',
        message,
        requestedSchema,
        _meta: { [PARLEY_KEY_META]: item.key },
      };
      return { method: 'elicitation/create', params, resultSchema: ANY_REPLY };
    },
  },
  expected: EXPECTED,
  check(item, reply) {
    const elicit = readElicitReply(reply);
    if (!elicit) return malformed(item.key, EXPECTED);
    if (elicit.action !== 'accept') return { status: 'ok', result: { action: elicit.action } };
    // ElicitResult.content is "only present when action is accept and mode was form" (schema
    // 2026-07-28, ElicitResult): a form's accept without it is not a submission, never an empty one.
    if (!isRecord(elicit.content))
      return {
        status: 'malformed',
        problem:
          `the answer for '${item.key}' accepts a form but carries no content object; a form's accept must ` +
          'send the submitted fields in content (content: {} when the person left every optional field empty)',
      };
    const received = receivedContent(item, elicit.content);
    if (!received.ok) return { status: 'invalid', reason: describeErrors(item.question, received.errors) };
    const parsed = item.question.parse(received.content);
    if (parsed.ok) return { status: 'ok', result: { action: 'accept', value: parsed.value } };
    return { status: 'invalid', reason: describeErrors(item.question, parsed.errors) };
  },
  encode: (item, result) => encodeFormAnswer(item.question, result as ElicitOutcome<unknown>),
  decode: (item, encoded) => decodeFormAnswer(item.question, encoded),
};

/**
 * An answer to a form as it is journaled: `'d'` or `'c'` for a refusal; an accepted form is its field
 * values in property order (the question, known again on replay, supplies the names; `null` for a
 * field left out), or `[value]` for a bare field (whose value may itself be a string).
 */
export function encodeFormAnswer(question: PreparedQuestion<unknown>, outcome: ElicitOutcome<unknown>): Json {
  const refusal = encodeRefusal(outcome);
  if (refusal) return refusal;
  const value = (outcome as { value: unknown }).value;
  if (!question.wrapped) return packForm(question, value);
  return value === undefined ? [] : [value as Json];
}

/** Reads back what {@link encodeFormAnswer} journaled. */
export function decodeFormAnswer(question: PreparedQuestion<unknown>, encoded: Json): ElicitOutcome<unknown> {
  const refusal = decodeRefusal(encoded);
  if (refusal) return refusal;
  if (!question.wrapped) return { action: 'accept', value: unpackForm(question, encoded) };
  return { action: 'accept', value: (encoded as Json[])[0] };
}

/**
 * The answer's content in the author's fields: raised by the host's profile (its lowered fields
 * read back, its empty and invented values taken as empty, defaults only where it did not show
 * them), or, from a host no profile knows, read liberally.
 */
function receivedContent(item: FormItem, content: Record<string, unknown>): RaisedContent {
  const lowered = item.host?.form(item.question);
  if (lowered?.ok) return lowered.raise(content);
  return { ok: true, content: liberalContent(item.question.schema, content) };
}

/** One sentence per bad field, named by its title ("Boxes: Enter a whole number between 1 and 3."). */
function describeErrors(
  question: PreparedQuestion<unknown>,
  errors: readonly { field: string; message: string }[],
): string {
  const titles = new Map(listFields(question.schema).map((field) => [field.name, field.title]));
  return errors
    .map(({ field, message }) => {
      const sentence = /[.!?]$/.test(message) ? message : `${message}.`;
      return question.wrapped ? sentence : `${titles.get(field) ?? field}: ${sentence}`;
    })
    .join(' ');
}

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
  const plain = isRecord(value) && Object.keys(value).every((key) => names.includes(key));
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
