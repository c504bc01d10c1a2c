import { type PreparedQuestion, secretAskedIn } from '@parley/core/form';
import { AuthorError, SecretInFormError } from '../errors.js';
import { personalDataIn } from './url-personal-data.js';

/** A question was about to be sent with no message: the person would see a prompt with no words. */
export class EmptyMessageError extends AuthorError {
  constructor(kind: string) {
    super(
      `A ${kind} question needs a message: the person reads it to know what is asked and why. Pass the text ` +
        `first, e.g. ctx.elicit('How many boxes should we collect?', ask.integer()).`,
    );
    this.name = 'EmptyMessageError';
  }
}

/**
 * A URL question would send the person (and show the client) a URL that carries credentials or
 * personal data. The client and its model see every URL they are asked to open.
 */
export class UnsafeUrlError extends AuthorError {
  constructor(problems: readonly string[]) {
    super(
      `This URL must not be sent: it carries ${problems.join(', ')}, which the client and its model would see. ` +
        'Put an opaque id in the URL (a flow of this server: ctx.elicitUrl(message, { flow })) and keep ' +
        'tokens and personal data on the server.',
    );
    this.name = 'UnsafeUrlError';
  }
}

/** Refuses an empty (or blank) message. */
export function requireMessage(kind: string, message: unknown): string {
  if (typeof message !== 'string' || message.trim() === '') throw new EmptyMessageError(kind);
  return message;
}

/**
 * Refuses a form whose message asks for a secret ("Please paste your GitHub API key"), unless its
 * author said the message only mentions one (`{ mentionsSecret: true }`).
 */
export function refuseSecretInMessage(message: string, mentionsSecret = false): void {
  if (mentionsSecret) return;
  const looksLike = judgedMessage(message);
  if (looksLike) throw SecretInFormError.inMessage(message, looksLike);
}

/**
 * Messages already judged, and what they ask for ('' for nothing): most come from a template and
 * repeat round after round, and judging one (tokenizing it) cost more than the rest of a form
 * question's checks. Bounded: cleared when full, and long messages are judged every time.
 */
const judged = new Map<string, string>();
const JUDGED_MAX_ENTRIES = 512;
const JUDGED_MAX_CHARS = 500;

function judgedMessage(message: string): string | undefined {
  const known = judged.get(message);
  if (known !== undefined) return known === '' ? undefined : known;
  const looksLike = secretAskedIn(message);
  if (message.length <= JUDGED_MAX_CHARS) {
    if (judged.size >= JUDGED_MAX_ENTRIES) judged.clear();
    judged.set(message, looksLike ?? '');
  }
  return looksLike;
}

const warnedEmpty = new WeakSet<PreparedQuestion<unknown>>();

/**
 * Warns once per question (a Node process warning, code `PARLEY_EMPTY_FORM`) about a form with no
 * fields: the person can only accept or decline it, and some clients show an empty dialog.
 */
export function warnIfEmptyForm(question: PreparedQuestion<unknown>): void {
  if (question.wrapped || Object.keys(question.schema.properties).length > 0) return;
  if (warnedEmpty.has(question)) return;
  warnedEmpty.add(question);
  process.emitWarning(
    'ask.form({}) has no fields: the person can only accept or decline an empty dialog. For a yes/no ' +
      "question use ask.boolean({ title: 'Go ahead?' }); to tell the person something, say it in the result.",
    { code: 'PARLEY_EMPTY_FORM' },
  );
}

/** Query and fragment parameters that carry credentials (besides names that look like secrets). */
const CREDENTIAL_PARAMS = new Set([
  'token',
  'code',
  'auth',
  'authorization',
  'jwt',
  'session',
  'sessionid',
  'sid',
]);

/**
 * What in `url` carries credentials or personal data (empty when nothing does): what makes
 * `ctx.elicitUrl` refuse a URL with {@link UnsafeUrlError}. A relay checks URLs it did not write
 * with it before it passes them on.
 *
 * @example
 * unsafeUrlParts(new URL('https://example.com/connect?token=abc')); // ["a parameter 'token' (a credential)"]
 */
export function unsafeUrlParts(url: URL): string[] {
  const problems: string[] = [];
  if (url.username || url.password) problems.push('credentials in its user-info part (user:password@)');
  const fragment = url.hash.startsWith('#') ? url.hash.slice(1) : '';
  for (const [name] of [...url.searchParams, ...new URLSearchParams(fragment)]) {
    const looksLike =
      secretAskedIn(name) ?? (CREDENTIAL_PARAMS.has(name.toLowerCase()) ? 'a credential' : undefined);
    if (looksLike) problems.push(`a parameter '${name}' (${looksLike})`);
  }
  for (const kind of personalDataIn(url)) problems.push(`${kind} (personal data)`);
  return problems;
}

/** Refuses a URL that {@link unsafeUrlParts} finds anything in; returns it parsed otherwise. */
export function requireSafeUrl(target: string): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new AuthorError(`ctx.elicitUrl() needs an absolute URL (https://...); got '${target}'.`);
  }
  const problems = unsafeUrlParts(url);
  if (problems.length > 0) throw new UnsafeUrlError(problems);
  return target;
}
