import {
  type FieldKind,
  listFields,
  type ReceivedSchema,
  type RequestedSchema,
  receiveRequestedSchema,
  secretAskedIn,
  sensitiveFields,
} from '@parley/core/form';

/** What the gateway reads from an upstream's form: its schema received, and what the person must type as a secret. */
export interface FormReading {
  readonly received: ReceivedSchema;
  /** How many fields it has (past {@link MAX_FORM_FIELDS} it is not read further). */
  readonly fields: number;
  /** Whether the message asks for a secret. */
  readonly asking: boolean;
  /** The fields asked on the gateway's page as secrets (none: the form may go in-band). */
  readonly secretFields: readonly string[];
}

/** The most fields one upstream form may have. */
export const MAX_FORM_FIELDS = 100;
/** Readings kept, at most: an upstream asks the same few forms again and again (and each of its rounds again on a retry). */
const MAX_KEPT = 256;
/** A message and schema longer than this together are read each time, not kept. */
const MAX_KEY_CHARS = 8_192;
const kept = new Map<string, FormReading>();

/**
 * Reads a form's message and schema: the schema received liberally (as Parley's client receives
 * one), and the secret guardrail applied to the message and each field. The reading depends on
 * the exact text of both and nothing else, so it is kept by that text (a bounded number, the
 * oldest let go first, each frozen so no caller can change what another gets): a 2026-07-28 call
 * reads its question on every round it replays, and every call of a tool asks the same form.
 */
export function readFormOf(message: string, requestedSchema: unknown): FormReading {
  let key: string | undefined;
  try {
    key = `${message}\u0000${JSON.stringify(requestedSchema)}`;
  } catch {
    key = undefined;
  }
  if (key === undefined || key.length > MAX_KEY_CHARS) return read(message, requestedSchema);
  const known = kept.get(key);
  if (known !== undefined) return known;
  const reading = deepFreeze(read(message, requestedSchema));
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, reading);
  return reading;
}

function read(message: string, requestedSchema: unknown): FormReading {
  const received = receiveRequestedSchema(requestedSchema);
  const fields = received.ok ? Object.keys(received.schema.properties ?? {}).length : 0;
  if (!received.ok || fields > MAX_FORM_FIELDS) return { received, fields, asking: false, secretFields: [] };
  const asking = secretAskedIn(message) !== undefined;
  const sensitive = sensitiveFields(received.schema).map((field) => field.name);
  // A message that asks for a secret makes every field the person types into one.
  const secretFields = sensitive.length > 0 || !asking ? sensitive : typedFields(received.schema);
  return { received, fields, asking, secretFields };
}

/** The kinds of field a person types into (not a choice, a yes/no or a number). */
const TYPED_KINDS: ReadonlySet<FieldKind> = new Set(['text', 'email', 'uri', 'date', 'date-time']);

/** The fields a person types text into, read as Parley reads every form (`listFields`). */
function typedFields(schema: RequestedSchema): string[] {
  return listFields(schema)
    .filter((field) => TYPED_KINDS.has(field.kind))
    .map((field) => field.name);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
