import {
  argumentFields,
  checkField,
  listFields,
  type RequestedSchema,
  sensitiveFields,
} from '@parley/core/form';
import type { AskMissingOptions } from '../ask-types.js';
import type { ArgsCheck, ArgsSchema } from './schema.js';

/** The tool whose arguments are asked for. */
export interface ArgumentsSource {
  readonly tool: string;
  /** How the person knows the tool (its title, else its name). */
  readonly label: string;
  readonly input: ArgsSchema;
  /** Its input schema as JSON Schema (what `tools/list` shows). */
  readonly json: Readonly<Record<string, unknown>>;
}

/** Options with their defaults filled in. */
export interface MissingSettings {
  readonly fields: readonly string[];
  readonly optional: readonly string[];
  readonly given: 'default' | 'skip';
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly message: string | undefined;
  readonly key: string;
}

/** What to do about a call's arguments: nothing to ask, the usual error, or one form. */
export type MissingPlan =
  | { readonly kind: 'complete'; readonly value: unknown }
  | { readonly kind: 'refuse'; readonly message: string }
  | {
      readonly kind: 'ask';
      readonly message: string;
      readonly schema: RequestedSchema;
      /** The arguments asked for (absent or invalid). */
      readonly asked: readonly string[];
      /** The caller's arguments that stay as they are (the form's answers go on top). */
      readonly kept: Readonly<Record<string, unknown>>;
      /** The usual invalid-arguments error, for a client that cannot be asked. */
      readonly unanswerable: string;
    };

const DEFAULT_KEY = 'missing_arguments';

/** The usual error for arguments that fail their schema. */
export function invalidArguments(tool: string, details: string): string {
  return `Invalid arguments for tool ${tool}: ${details}`;
}

/** Resolves the options, refusing names the input schema does not have or a form cannot ask. */
export function missingSettings(
  source: ArgumentsSource,
  options: AskMissingOptions<Record<string, unknown>, string> | true | undefined,
): MissingSettings {
  const given = options === true || options === undefined ? {} : options;
  const fields = (given.fields ?? []).map(String);
  const optional = (given.optional ?? []).map(String);
  const names = [...fields, ...optional];
  const { properties, unaskable } = argumentFields(source.json, names, source.input);
  if (unaskable.length > 0) {
    const list = unaskable.map((entry) => `'${entry.name}' (${entry.reason})`).join(', ');
    throw new TypeError(
      `Tool ${source.tool} asks for arguments a form cannot ask: ${list}. Name only properties of its input schema that are strings, numbers, booleans, enums or lists of enums.`,
    );
  }
  // A secret never passes through a form: say so now, not when a call first lacks it.
  const required = Array.isArray(source.json.required) ? source.json.required.map(String) : [];
  const asked = argumentFields(source.json, required, source.input).properties;
  const secrets = sensitiveFields({
    type: 'object',
    properties: { ...asked, ...properties },
  } as RequestedSchema);
  if (secrets.length > 0) {
    const list = secrets.map((field) => `'${field.name}' (${field.looksLike})`).join(', ');
    throw new TypeError(
      `Tool ${source.tool} would ask for ${list} in a form, where the client and its model see it. Leave it out of askMissing and ask for it in the handler with ctx.elicit(message, ask.secret()), answered on a page of this server.`,
    );
  }
  if (given.given !== undefined && given.given !== 'default' && given.given !== 'skip')
    throw new TypeError(`askMissing's given is 'default' or 'skip' (got ${JSON.stringify(given.given)}).`);
  return {
    fields,
    optional,
    given: given.given ?? 'default',
    defaults: (given.defaults ?? {}) as Readonly<Record<string, unknown>>,
    message: given.message,
    key: given.key ?? DEFAULT_KEY,
  };
}

/**
 * Works out what to ask for `args` (the caller's, as sent) that `check` (their check against the
 * tool's input schema) found wrong or that the settings want and the caller left out.
 */
export function planMissing(
  source: ArgumentsSource,
  args: unknown,
  check: ArgsCheck,
  settings: MissingSettings,
): MissingPlan {
  const failure = check.ok ? undefined : invalidArguments(source.tool, check.message);
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return failure
      ? { kind: 'refuse', message: failure }
      : { kind: 'complete', value: check.ok && check.value };
  const given = args as Readonly<Record<string, unknown>>;
  const absent = (name: string) => given[name] === undefined;
  const faulty = new Set<string>();
  /** What was wrong with each argument the caller gave (an absent one is simply missing). */
  const invalid = new Map<string, string>();
  if (!check.ok) {
    for (const issue of check.issues) {
      const field = issue.path[0];
      // A problem with the arguments as a whole (an unknown key of a strict object) cannot be asked.
      if (field === undefined) return { kind: 'refuse', message: failure! };
      faulty.add(field);
      if (!absent(field) && !invalid.has(field)) invalid.set(field, issue.message);
    }
  }
  const required = Array.isArray(source.json.required) ? source.json.required.map(String) : [];
  const wanted = new Set([...required, ...settings.fields]);
  const asked = [...new Set([...[...wanted].filter(absent), ...faulty])];
  if (asked.length === 0)
    return check.ok ? { kind: 'complete', value: check.value } : { kind: 'refuse', message: failure! };

  const { properties, unaskable } = argumentFields(source.json, asked, source.input);
  const unanswerable =
    failure ?? invalidArguments(source.tool, asked.map((name) => `${name}: missing`).join('; '));
  if (unaskable.length > 0) return { kind: 'refuse', message: unanswerable };

  const schema: { type: 'object'; properties: Record<string, unknown>; required: string[] } = {
    type: 'object',
    properties: {},
    required: [],
  };
  const shown = new Set(asked);
  for (const name of asked) {
    schema.properties[name] = withDefault(properties[name]!, settings.defaults[name]);
    schema.required.push(name);
  }
  const extras = [
    ...(settings.given === 'default' ? [...wanted].filter((name) => !shown.has(name)) : []),
    ...settings.optional.filter((name) => !shown.has(name) && absent(name)),
  ];
  const offered = argumentFields(source.json, extras, source.input).properties;
  for (const [name, field] of Object.entries(offered)) {
    if (shown.has(name)) continue;
    const value = absent(name) ? settings.defaults[name] : given[name];
    schema.properties[name] = withDefault(field, value);
    shown.add(name);
    if (wanted.has(name)) schema.required.push(name);
  }
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) if (!shown.has(name)) kept[name] = value;
  return {
    kind: 'ask',
    message: settings.message ?? defaultMessage(source.label, asked, properties, invalid),
    schema: schema as unknown as RequestedSchema,
    asked,
    kept,
    unanswerable,
  };
}

/** A field with `value` as its default, when the value fits it (else as it was). */
function withDefault(field: object, value: unknown): object {
  if (value === undefined) return field;
  const candidate = { ...field, default: value };
  const [described] = listFields({ type: 'object', properties: { value: candidate } } as never);
  if (!described || checkField(described, value as never) !== undefined) return field;
  return candidate;
}

/** How a person reads an argument's name: its title, else `pickup_date` as "pickup date". */
function fieldWords(name: string, field: object | undefined): string {
  const title = (field as { title?: unknown } | undefined)?.title;
  if (typeof title === 'string' && title.trim() !== '') {
    const words = title.trim();
    // Mid-sentence: "Reason for the return" reads "reason for the return"; "API key" stays.
    return /^[A-Z][^A-Z]/.test(words) ? words[0]!.toLowerCase() + words.slice(1) : words;
  }
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
}

function wordList(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** "Book a return needs the reason and the pickup date. The boxes given could not be used: ..." */
function defaultMessage(
  label: string,
  asked: readonly string[],
  properties: Readonly<Record<string, object>>,
  invalid: ReadonlyMap<string, string>,
): string {
  const missing = asked.filter((name) => !invalid.has(name));
  const parts: string[] = [];
  if (missing.length > 0)
    parts.push(`${label} needs ${wordList(missing.map((name) => fieldWords(name, properties[name])))}.`);
  for (const [name, problem] of invalid) {
    if (!asked.includes(name)) continue;
    parts.push(`The ${fieldWords(name, properties[name])} given could not be used (${problem}).`);
  }
  parts.push(missing.length > 0 ? 'Fill in what is missing.' : 'Enter it again.');
  return parts.join(' ');
}
