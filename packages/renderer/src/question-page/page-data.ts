import { isRecord, type RequestedSchema } from '@parley/core/form';

/**
 * What a question page needs, as the server writes it into the page (the `#parley-question` JSON
 * island): who asks, the question, and where and how to send the answer.
 */
export interface QuestionPageData {
  readonly v: 1;
  /** Who asks: the MCP server's self-description (server-chosen, shown as text). */
  readonly server: { readonly name: string; readonly title?: string; readonly version?: string };
  /** During which call: tool, prompt or resource (name, or URI for a resource). */
  readonly call: { readonly kind: 'tool' | 'prompt' | 'resource'; readonly name: string };
  /** The server's message, shown as text. */
  readonly message: string;
  /** Always within the MCP requestedSchema subset (checkRequestedSchema passes). */
  readonly requestedSchema: RequestedSchema;
  /** Fields that take a secret: rendered masked, never shown back. */
  readonly secretFields: readonly string[];
  /** A yes/no confirmation (one boolean field): the page may word its buttons for it. */
  readonly confirm?: boolean;
  /** Echoed in the POST body (anti-CSRF, bound to this page). */
  readonly csrf: string;
  /** When the link stops working (ms since epoch): the page may show the time left. */
  readonly expiresAt: number;
  /** Where to POST the answer (absolute URL, same origin as the page). */
  readonly answerUrl: string;
  /**
   * What the person does after answering: 'url' = go back to the app, which is waiting
   * ("choose I've finished" if it asks); 'retry' = ask the app to make the same request again.
   */
  readonly after: 'url' | 'retry';
}

/** The island read: the page's data, or what is wrong with it (for the person and the author). */
export type PageDataReading =
  | { readonly ok: true; readonly data: QuestionPageData }
  | { readonly ok: false; readonly problem: string };

const CALL_KINDS = new Set(['tool', 'prompt', 'resource']);

const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown) => value === undefined || isString(value);

/** The first thing wrong with the island, or '' when it has the shape of {@link QuestionPageData}. */
function problemOf(value: Record<string, unknown>, origin: string): string {
  if (value.v !== 1) return 'its version is not 1';
  const { server, call } = value;
  if (!isRecord(server) || !isString(server.name) || !isOptionalString(server.title))
    return 'server must have a name';
  if (!isOptionalString(server.version)) return 'server.version must be text';
  if (!isRecord(call) || !CALL_KINDS.has(call.kind as string) || !isString(call.name))
    return 'call must be a tool, prompt or resource with a name';
  if (!isString(value.message)) return 'message must be text';
  if (!isRecord(value.requestedSchema)) return 'requestedSchema must be an object';
  if (!Array.isArray(value.secretFields) || !value.secretFields.every(isString))
    return 'secretFields must be a list of field names';
  if (value.confirm !== undefined && typeof value.confirm !== 'boolean')
    return 'confirm must be true or false';
  if (!isString(value.csrf) || value.csrf === '') return 'csrf is missing';
  if (typeof value.expiresAt !== 'number' || !Number.isFinite(value.expiresAt))
    return 'expiresAt must be a time in milliseconds';
  if (value.after !== 'url' && value.after !== 'retry') return "after must be 'url' or 'retry'";
  const answerOrigin = isString(value.answerUrl) ? originOf(value.answerUrl) : undefined;
  if (answerOrigin === undefined) return 'answerUrl must be an absolute URL';
  if (answerOrigin !== origin) return "answerUrl must be on the page's own origin";
  return '';
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Checks the island's parsed JSON before the page trusts it: every field of
 * {@link QuestionPageData} with its type, and an `answerUrl` on the page's own `origin` (so a
 * page never posts an answer anywhere else).
 *
 * @example
 * const island = document.querySelector('#parley-question');
 * const reading = readQuestionPageData(JSON.parse(island?.textContent ?? 'null'), location.origin);
 * if (!reading.ok) document.body.textContent = `This page cannot show its question: ${reading.problem}.`;
 */
export function readQuestionPageData(value: unknown, origin: string): PageDataReading {
  if (!isRecord(value)) return { ok: false, problem: 'it is not an object' };
  const problem = problemOf(value, origin);
  return problem === '' ? { ok: true, data: value as unknown as QuestionPageData } : { ok: false, problem };
}
