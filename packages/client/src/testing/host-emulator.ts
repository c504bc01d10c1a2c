import type { FieldKind } from '@parley/core/form';
import { type HostProfile, hostShowsDefault } from '@parley/core/hosts';
import type { ElicitResult } from '../types.js';
import { fieldsOf, personEnters, requiredOf } from './host-person.js';

/** What an emulated host answered a question with: a result, or a JSON-RPC error of its own. */
export type HostReply =
  | { readonly result: Readonly<Record<string, unknown>> }
  | { readonly error: { readonly code: number; readonly message: string } };

/** One question an emulated host was sent, what it could not show, and what it answered. */
export interface HostQuestion {
  readonly mode: 'form' | 'url';
  readonly key?: string;
  readonly message: string;
  /** The form exactly as the host was sent it. */
  readonly requestedSchema?: unknown;
  readonly url?: string;
  /**
   * What this host could not show as the server meant it, by its profile (a field it cannot render,
   * a root key it rejects, a form it accepts without the person...). Empty: it showed everything.
   */
  readonly problems: readonly string[];
  /** Whether the person saw it: `false` when the host answered by itself or refused it. */
  readonly shownToPerson: boolean;
  readonly reply: HostReply;
}

/** Asks the person (the scripted answers) about a form as the host shows it. */
export type AskPerson = (requestedSchema: unknown) => Promise<ElicitResult>;

const ROOT_KEYS = new Set(['type', 'properties', 'required']);
const METHOD_NOT_FOUND = { code: -32601, message: 'Method not found' };

/** A field's kind as a host reads it off the schema (enough to decide how it shows it). */
function kindOf(node: Readonly<Record<string, unknown>>): FieldKind {
  if (node.type === 'number' || node.type === 'integer' || node.type === 'boolean') return node.type;
  if (node.type === 'array') return 'many';
  if (node.enum !== undefined || node.oneOf !== undefined) return 'choice';
  return 'text';
}

function titled(node: Readonly<Record<string, unknown>>): boolean {
  return node.oneOf !== undefined || node.enumNames !== undefined;
}

/** How `host` shows one field: as the spec means it, not at all, or as a free text box. */
function shownAs(
  host: HostProfile,
  node: Readonly<Record<string, unknown>>,
): 'shown' | 'unsupported' | 'text' {
  const kind = kindOf(node);
  if (kind === 'number' || kind === 'integer') return host.fields?.number?.value ?? 'shown';
  if (kind === 'many') return host.fields?.multiSelect?.value ?? 'shown';
  if (kind === 'choice' && titled(node) && host.fields?.choiceLabels?.value === 'text') return 'text';
  return 'shown';
}

/**
 * What `host` does with a form question, by its profile: a form mode it does not declare is
 * refused with -32601; root keys it rejects refuse the whole question (-32602); an empty form it
 * accepts without the person is accepted with `{}`; a field it cannot render leaves the person only
 * approve or decline (accepted with `{}`); the person's answer is then entered as the host takes it,
 * and the fields they left alone are sent as the host sends them (its pre-filled defaults, its
 * invented values, VS Code's `null` for an empty optional number).
 */
export async function hostAnswersForm(
  host: HostProfile,
  params: Readonly<Record<string, unknown>>,
  askPerson: AskPerson,
): Promise<Omit<HostQuestion, 'key' | 'message' | 'mode'>> {
  const schema = params.requestedSchema;
  const record = { requestedSchema: schema };
  if (host.forms.value === 'not-declared')
    return {
      ...record,
      problems: [`${host.title} declares no form mode`],
      shownToPerson: false,
      reply: { error: METHOD_NOT_FOUND },
    };
  const extra = Object.keys(typeof schema === 'object' && schema !== null ? schema : {}).filter(
    (key) => !ROOT_KEYS.has(key),
  );
  if (extra.length > 0 && host.rootKeys?.value === 'rejected')
    return {
      ...record,
      problems: [`root key ${extra.join(', ')} rejects the whole question`],
      shownToPerson: false,
      reply: { error: { code: -32602, message: `unknown field \`${extra[0]}\`` } },
    };
  const fields = fieldsOf(schema);
  if (fields.length === 0 && host.emptyForm?.value === 'auto-accepted')
    return {
      ...record,
      problems: ['a form with no fields is accepted without asking the person'],
      shownToPerson: false,
      reply: { result: { action: 'accept', content: {} } },
    };
  const problems: string[] = [];
  let fallback = false;
  for (const [name, node] of fields) {
    const shown = shownAs(host, node);
    if (shown === 'unsupported') {
      fallback = true;
      problems.push(`field ${name} (${kindOf(node)}) cannot be shown: only approve or decline is offered`);
    } else if (shown === 'text') problems.push(`field ${name} (${kindOf(node)}) is shown as a free text box`);
  }
  const meant = await askPerson(schema);
  if (meant.action !== 'accept') {
    if (fields.length === 0 && host.emptyForm?.value === 'accept-only') {
      problems.push('a form with no fields offers only Accept: the person could not decline');
      return {
        ...record,
        problems,
        shownToPerson: true,
        reply: { result: { action: 'accept', content: {} } },
      };
    }
    return { ...record, problems, shownToPerson: true, reply: { result: { action: meant.action } } };
  }
  if (fallback)
    return { ...record, problems, shownToPerson: true, reply: { result: { action: 'accept', content: {} } } };
  const content = enteredContent(host, schema, fields, (meant.content ?? {}) as Record<string, unknown>);
  return { ...record, problems, shownToPerson: true, reply: { result: { action: 'accept', content } } };
}

/** The content the host sends: what the person entered, and what it sends for the fields they left. */
function enteredContent(
  host: HostProfile,
  schema: unknown,
  fields: readonly [string, Readonly<Record<string, unknown>>][],
  meant: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const required = requiredOf(schema);
  const untouched = host.untouched?.value;
  const content: Record<string, unknown> = {};
  for (const [name, node] of fields) {
    let value = personEnters(name, node, meant);
    const kind = kindOf(node);
    if (value === null) {
      // Emptied by the person: sent as the host sends an empty field of its kind, or not at all.
      const empty = kind === 'number' || kind === 'integer' ? untouched?.number : untouched?.text;
      if (empty === '' || empty === null) content[name] = empty;
      continue;
    }
    if (value !== undefined && shownAs(host, node) === 'text' && Array.isArray(value))
      value = value.join(', ');
    if (value === undefined && hostShowsDefault(host, kind, node.default)) value = node.default;
    if (value === undefined && !required.has(name) && node.default === undefined && untouched) {
      if (kind === 'boolean') value = untouched.boolean;
      else if (kind === 'number' || kind === 'integer')
        value =
          untouched.number === 'minimum'
            ? typeof node.minimum === 'number'
              ? node.minimum
              : 0
            : untouched.number;
      else if (kind !== 'many') value = untouched.text;
    }
    if (value !== undefined) content[name] = value;
  }
  return content;
}

/**
 * What `host` does with a URL question: a URL mode it does not declare is refused (-32602); one that
 * accepts as soon as the page opens answers `accept` at once and the person goes on in the page
 * (`afterwards`); otherwise the person consents (or not) first.
 */
export async function hostAnswersUrl(
  host: HostProfile,
  askPerson: () => Promise<{ readonly action: string }>,
): Promise<Omit<HostQuestion, 'key' | 'message' | 'mode' | 'url'>> {
  if (host.url.value === 'not-declared')
    return {
      problems: [`${host.title} declares no URL mode`],
      shownToPerson: false,
      reply: { error: { code: -32602, message: 'Client does not support URL-mode elicitation requests' } },
    };
  if (host.url.value === 'accept-on-open') {
    // The person goes on in the page; the host has already said accept.
    void askPerson().catch(() => {});
    return { problems: [], shownToPerson: true, reply: { result: { action: 'accept' } } };
  }
  const consent = await askPerson();
  return { problems: [], shownToPerson: true, reply: { result: { action: consent.action } } };
}
