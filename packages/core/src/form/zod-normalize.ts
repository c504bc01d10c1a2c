// Turns zod's own JSON Schema output for one object property into the form subset, mapping what
// maps (unions of literals, zod's format patterns, integer exclusive bounds) and naming the zod
// construct behind anything that cannot be sent. Reads zod definitions structurally: core never
// imports zod.

import { isRecord, own } from './json.js';
import { pointer, problem } from './problems.js';
import type { SchemaProblem } from './types.js';

/** zod's string formats that the form subset has, with their wire names. */
const WIRE_FORMATS: Record<string, string> = {
  email: 'email',
  url: 'uri',
  date: 'date',
  datetime: 'date-time',
};
const SUBSET_FORMATS = new Set(Object.values(WIRE_FORMATS));

/** zod checks that emit a pattern, with the method a developer wrote. */
const PATTERN_CHECKS: Record<string, string> = {
  regex: '.regex()',
  starts_with: '.startsWith()',
  ends_with: '.endsWith()',
  includes: '.includes()',
  lowercase: '.lowercase()',
  uppercase: '.uppercase()',
};

/** Keywords that only annotate; dropping them changes nothing a person must answer. */
const ANNOTATIONS = ['examples', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'id'];

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

function zodDef(schema: unknown): Record<string, unknown> | undefined {
  const internals =
    isRecord(schema) || typeof schema === 'function' ? (schema as { _zod?: unknown })._zod : undefined;
  return isRecord(internals) && isRecord(internals.def) ? internals.def : undefined;
}

/** The definition under optional/default/nullable/pipe wrappers. */
function innerDef(schema: unknown): Record<string, unknown> | undefined {
  let def = zodDef(schema);
  for (let depth = 0; def && depth < 32; depth++) {
    if (typeof def.type === 'string' && WRAPPERS.has(def.type)) def = zodDef(def.innerType);
    else if (def.type === 'pipe') def = zodDef(def.in);
    else break;
  }
  return def;
}

interface FormatCheck {
  readonly format: string;
  readonly pattern: string | undefined;
}

/** The string-format checks of a zod field: its own format (z.email()) and added ones (.regex()). */
function formatChecks(schema: unknown): FormatCheck[] {
  const def = innerDef(schema);
  if (!def) return [];
  const defs = [def, ...(Array.isArray(def.checks) ? def.checks.map(zodDef) : [])];
  return defs
    .filter((item): item is Record<string, unknown> => item?.check === 'string_format')
    .map((item) => ({
      format: String(item.format),
      pattern: item.pattern instanceof RegExp ? item.pattern.source : undefined,
    }));
}

function isConstOption(entry: unknown): entry is Record<string, unknown> {
  return (
    isRecord(entry) &&
    typeof entry.const === 'string' &&
    Object.keys(entry).every((key) => ['type', 'const', 'title', 'description'].includes(key)) &&
    (entry.type === undefined || entry.type === 'string')
  );
}

/** A union of string literals as enum values, or titled options when every literal has a title. */
function literalOptions(
  list: unknown,
): { enum: string[] } | { titled: { const: string; title: string }[] } | undefined {
  if (!Array.isArray(list) || list.length === 0 || !list.every(isConstOption)) return undefined;
  if (list.every((entry) => typeof entry.title === 'string')) {
    return { titled: list.map((entry) => ({ const: entry.const as string, title: entry.title as string })) };
  }
  return { enum: list.map((entry) => entry.const as string) };
}

function mapLiteralUnion(node: Record<string, unknown>): void {
  const options = literalOptions(own(node, 'anyOf'));
  if (!options) return;
  delete node.anyOf;
  node.type = 'string';
  if ('enum' in options) node.enum = options.enum;
  else node.oneOf = options.titled;
}

function mapItems(node: Record<string, unknown>): void {
  const items = own(node, 'items');
  if (!isRecord(items)) return;
  const options = literalOptions(own(items, 'anyOf'));
  if (options) {
    node.items = 'enum' in options ? { type: 'string', enum: options.enum } : { anyOf: options.titled };
  }
}

function isNullable(node: Record<string, unknown>): boolean {
  const type = own(node, 'type');
  const anyOf = own(node, 'anyOf');
  return (
    (Array.isArray(type) && type.includes('null')) ||
    (Array.isArray(anyOf) && anyOf.some((entry) => isRecord(entry) && entry.type === 'null'))
  );
}

/** The patterns zod put on a string: `pattern`, or `allOf: [{ pattern }, ...]` when there are several. */
function takePatterns(node: Record<string, unknown>): string[] {
  const patterns: string[] = [];
  const single = own(node, 'pattern');
  if (typeof single === 'string') {
    patterns.push(single);
    delete node.pattern;
  }
  const allOf = own(node, 'allOf');
  const onlyPatterns = (entry: unknown) =>
    isRecord(entry) && Object.keys(entry).length === 1 && typeof entry.pattern === 'string';
  if (Array.isArray(allOf) && allOf.every(onlyPatterns)) {
    patterns.push(...allOf.map((entry) => (entry as { pattern: string }).pattern));
    delete node.allOf;
  }
  return patterns;
}

/** How a developer wrote a zod string format, for messages: `z.uuid()`, `z.iso.time()`. */
function formatConstruct(format: string): string {
  return ['time', 'duration'].includes(format) ? `z.iso.${format}()` : `z.${format}()`;
}

function formatProblem(path: string, format: string): SchemaProblem {
  return problem(
    pointer(path, 'format'),
    `${formatConstruct(format)} (format "${format}") cannot be sent; forms have only email, uri, date and ` +
      'date-time, so use z.string() and check the value on the server after the answer',
  );
}

function normalizeString(node: Record<string, unknown>, zodField: unknown, path: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const reportedFormats = new Set<string>();
  const checks = formatChecks(zodField);
  for (const pattern of takePatterns(node)) {
    const check = checks.find((item) => item.pattern === pattern);
    if (check && Object.hasOwn(WIRE_FORMATS, check.format)) {
      // zod's own regex for a format the form has: the format says it on the wire.
      node.format ??= WIRE_FORMATS[check.format];
    } else if (check && !Object.hasOwn(PATTERN_CHECKS, check.format)) {
      // zod's own regex for a format the form lacks (uuid, time, ...): the format is the problem.
      if (!reportedFormats.has(check.format)) problems.push(formatProblem(path, check.format));
      reportedFormats.add(check.format);
    } else {
      const method = check ? PATTERN_CHECKS[check.format] : 'a pattern';
      problems.push(
        problem(
          pointer(path, 'pattern'),
          `${method} cannot be sent (clients do not enforce patterns); ` +
            'drop it from the question and validate on the server after the answer',
        ),
      );
    }
  }
  const format = own(node, 'format');
  if (typeof format === 'string' && !SUBSET_FORMATS.has(format)) {
    delete node.format;
    if (!Object.hasOwn(PATTERN_CHECKS, format) && !reportedFormats.has(format)) {
      problems.push(formatProblem(path, format));
    }
  }
  return problems;
}

function normalizeNumber(node: Record<string, unknown>, path: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const integer = node.type === 'integer';
  const exclusive: [key: string, inclusive: string, method: string, toInclusive: (x: number) => number][] = [
    ['exclusiveMinimum', 'minimum', '.gt() or .positive()', (x) => Math.floor(x) + 1],
    ['exclusiveMaximum', 'maximum', '.lt() or .negative()', (x) => Math.ceil(x) - 1],
  ];
  for (const [key, inclusive, method, toInclusive] of exclusive) {
    const bound = own(node, key);
    if (typeof bound !== 'number') continue;
    delete node[key];
    if (integer) {
      const current = own(node, inclusive);
      const mapped = toInclusive(bound);
      const stricter = key === 'exclusiveMinimum' ? Math.max : Math.min;
      node[inclusive] = typeof current === 'number' ? stricter(current, mapped) : mapped;
    } else {
      problems.push(
        problem(
          pointer(path, key),
          `${method} (an exclusive bound) cannot be sent; use .min()/.max() (inclusive), or .int() for whole numbers`,
        ),
      );
    }
  }
  // z.int() adds the safe-integer range; it says nothing a person needs to see.
  if (integer && node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  if (integer && node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  return problems;
}

/** What normalizing one property found. `blocked`: the field cannot be sent at all. */
export interface NormalizedProperty {
  readonly problems: SchemaProblem[];
  readonly blocked: boolean;
}

/**
 * Normalizes one converted property in place. Returns the problems only zod can explain; what is
 * left outside the subset is reported later by `checkRequestedSchema`.
 */
export function normalizeZodProperty(
  node: Record<string, unknown>,
  zodField: unknown,
  path: string,
): NormalizedProperty {
  for (const key of ANNOTATIONS) delete node[key];
  if (isNullable(node)) {
    const message = '.nullable() fields cannot be sent; use .optional() so the person may leave it empty';
    return { problems: [problem(path, message)], blocked: true };
  }
  if (own(node, 'const') !== undefined) {
    const message =
      'z.literal() fields cannot be asked (the answer would be fixed); remove the field, or use z.enum([...])';
    return { problems: [problem(pointer(path, 'const'), message)], blocked: true };
  }
  mapLiteralUnion(node);
  mapItems(node);
  if (node.type === 'string') return { problems: normalizeString(node, zodField, path), blocked: false };
  if (node.type === 'number' || node.type === 'integer') {
    return { problems: normalizeNumber(node, path), blocked: false };
  }
  return { problems: [], blocked: false };
}
