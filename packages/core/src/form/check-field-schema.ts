// Checks one property of a requestedSchema against the field shapes of the spec's subset ("Requested Schema").

import { checkField } from './check-field.js';
import { checkEnum, checkEnumNames, checkTitledOptions } from './check-options.js';
import { describeField } from './fields.js';
import { isRecord, own } from './json.js';
import { keywordMessage, NESTED_OBJECT_MESSAGE } from './keyword-messages.js';
import { pointer, problem } from './problems.js';
import type { FormValue, SchemaProblem } from './types.js';

const FORMATS = ['email', 'uri', 'date', 'date-time'];
const COMMON = ['type', 'title', 'description', 'default'];
const STRUCTURAL = ['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'const', 'if'];

interface Shape {
  readonly name: string;
  readonly allowed: readonly string[];
  /** Messages for keywords this shape refuses for a shape-specific reason. */
  readonly refusals?: Readonly<Record<string, string>>;
  readonly check: (node: Record<string, unknown>, path: string) => SchemaProblem[];
}

function checkCount(node: Record<string, unknown>, key: string, path: string): SchemaProblem[] {
  const value = own(node, key);
  if (value === undefined || (Number.isInteger(value) && (value as number) >= 0)) return [];
  return [problem(pointer(path, key), `${key} must be a whole number of 0 or more`)];
}

function checkBound(node: Record<string, unknown>, key: string, path: string): SchemaProblem[] {
  const value = own(node, key);
  if (value === undefined || (typeof value === 'number' && Number.isFinite(value))) return [];
  return [problem(pointer(path, key), `${key} must be a finite number`)];
}

/** `lowerKey` must not exceed `upperKey`; reported at the lower key. */
function checkOrder(node: Record<string, unknown>, lowerKey: string, upperKey: string, path: string) {
  const lower = own(node, lowerKey);
  const upper = own(node, upperKey);
  if (typeof lower !== 'number' || typeof upper !== 'number' || lower <= upper) return [];
  return [
    problem(
      pointer(path, lowerKey),
      `${lowerKey} (${lower}) is greater than ${upperKey} (${upper}), so no answer fits; swap or fix them`,
    ),
  ];
}

function checkText(node: Record<string, unknown>, path: string): SchemaProblem[] {
  const problems = [
    ...checkCount(node, 'minLength', path),
    ...checkCount(node, 'maxLength', path),
    ...checkOrder(node, 'minLength', 'maxLength', path),
  ];
  const format = own(node, 'format');
  if (format !== undefined && !FORMATS.includes(format as string)) {
    problems.push(
      problem(
        pointer(path, 'format'),
        `format ${JSON.stringify(format)} cannot be sent; use one of ${FORMATS.join(', ')}, ` +
          'or plain text checked on the server after the answer',
      ),
    );
  }
  return problems;
}

function checkNumber(node: Record<string, unknown>, path: string): SchemaProblem[] {
  const problems = [
    ...checkBound(node, 'minimum', path),
    ...checkBound(node, 'maximum', path),
    ...checkOrder(node, 'minimum', 'maximum', path),
  ];
  const minimum = own(node, 'minimum');
  const maximum = own(node, 'maximum');
  if (
    problems.length === 0 &&
    own(node, 'type') === 'integer' &&
    typeof minimum === 'number' &&
    typeof maximum === 'number' &&
    Math.ceil(minimum) > Math.floor(maximum)
  ) {
    problems.push(
      problem(
        pointer(path, 'minimum'),
        `no whole number lies between minimum (${minimum}) and maximum (${maximum}); widen the range`,
      ),
    );
  }
  return problems;
}

function checkChoice(node: Record<string, unknown>, path: string): SchemaProblem[] {
  const problems = checkEnum(own(node, 'enum'), pointer(path, 'enum'));
  if (own(node, 'enumNames') !== undefined) {
    problems.push(...checkEnumNames(own(node, 'enumNames'), own(node, 'enum'), pointer(path, 'enumNames')));
  }
  return problems;
}

function optionCount(items: Record<string, unknown>): number | undefined {
  const list = own(items, 'anyOf') ?? own(items, 'enum');
  return Array.isArray(list) ? list.length : undefined;
}

function checkItems(items: unknown, path: string): SchemaProblem[] {
  const multiSelectHelp =
    'a multi-select needs items: { "type": "string", "enum": [...] } or items: { "anyOf": [{ "const", "title" }] }; ' +
    'other arrays cannot be asked in a form';
  if (!isRecord(items)) return [problem(path, multiSelectHelp)];
  if (own(items, 'anyOf') !== undefined) {
    const problems = checkTitledOptions(own(items, 'anyOf'), pointer(path, 'anyOf'), 'anyOf');
    for (const key of Object.keys(items)) {
      if (key !== 'anyOf') {
        problems.push(
          problem(pointer(path, key), `titled multi-select items carry only anyOf; remove "${key}"`),
        );
      }
    }
    return problems;
  }
  const type = own(items, 'type');
  if (type === 'object') return [problem(pointer(path, 'type'), NESTED_OBJECT_MESSAGE)];
  if (type !== 'string') {
    return [problem(pointer(path, 'type'), `multi-select items must be type "string"; ${multiSelectHelp}`)];
  }
  if (own(items, 'enum') === undefined) return [problem(pointer(path, 'enum'), multiSelectHelp)];
  const problems = checkEnum(own(items, 'enum'), pointer(path, 'enum'));
  for (const key of Object.keys(items)) {
    if (key !== 'type' && key !== 'enum') {
      problems.push(
        problem(pointer(path, key), `multi-select items carry only type and enum; remove "${key}"`),
      );
    }
  }
  return problems;
}

function checkMany(node: Record<string, unknown>, path: string): SchemaProblem[] {
  const items = own(node, 'items');
  const problems = [
    ...checkItems(items, pointer(path, 'items')),
    ...checkCount(node, 'minItems', path),
    ...checkCount(node, 'maxItems', path),
    ...checkOrder(node, 'minItems', 'maxItems', path),
  ];
  const minItems = own(node, 'minItems');
  const options = isRecord(items) ? optionCount(items) : undefined;
  if (problems.length === 0 && typeof minItems === 'number' && options !== undefined && minItems > options) {
    problems.push(
      problem(
        pointer(path, 'minItems'),
        `minItems (${minItems}) is more than the ${options} options, so no answer fits; lower it`,
      ),
    );
  }
  return problems;
}

const SHAPES = {
  text: {
    name: 'a text field',
    allowed: [...COMMON, 'minLength', 'maxLength', 'format'],
    check: checkText,
  },
  number: { name: 'a number field', allowed: [...COMMON, 'minimum', 'maximum'], check: checkNumber },
  boolean: { name: 'a boolean field', allowed: COMMON, check: () => [] },
  choice: { name: 'a choice', allowed: [...COMMON, 'enum', 'enumNames'], check: checkChoice },
  titledChoice: {
    name: 'a titled choice',
    allowed: [...COMMON, 'oneOf'],
    refusals: { enum: 'use either enum or oneOf for a choice, not both; remove enum' },
    check: (node, path) => checkTitledOptions(own(node, 'oneOf'), pointer(path, 'oneOf'), 'oneOf'),
  },
  many: { name: 'a multi-select', allowed: [...COMMON, 'items', 'minItems', 'maxItems'], check: checkMany },
} satisfies Record<string, Shape>;

function shapeOf(node: Record<string, unknown>): Shape | undefined {
  switch (own(node, 'type')) {
    case 'string':
      if (own(node, 'oneOf') !== undefined) return SHAPES.titledChoice;
      return own(node, 'enum') !== undefined ? SHAPES.choice : SHAPES.text;
    case 'number':
    case 'integer':
      return SHAPES.number;
    case 'boolean':
      return SHAPES.boolean;
    case 'array':
      return SHAPES.many;
    default:
      return undefined;
  }
}

/** The problems of a field without a usable `type`. */
function checkType(node: Record<string, unknown>, path: string): SchemaProblem[] {
  const type = own(node, 'type');
  const typePath = pointer(path, 'type');
  if (type === 'object') return [problem(typePath, NESTED_OBJECT_MESSAGE)];
  if (type === undefined) {
    const structural = Object.keys(node).filter((key) => STRUCTURAL.includes(key));
    if (structural.length > 0) {
      return structural.map((key) => problem(pointer(path, key), keywordMessage(key, 'a field', [])));
    }
    return [
      problem(typePath, 'add a type: "string", "number", "integer", "boolean", or "array" (a multi-select)'),
    ];
  }
  if (Array.isArray(type)) {
    return [
      problem(
        typePath,
        type.includes('null')
          ? 'nullable fields cannot be sent; give one type and leave the field out of required instead'
          : 'type must be one name, not a list; ask each kind of value as its own field',
      ),
    ];
  }
  return [
    problem(
      typePath,
      `type ${JSON.stringify(type)} cannot be asked; use "string", "number", "integer", "boolean", ` +
        'or "array" (a multi-select)',
    ),
  ];
}

function checkAnnotations(node: Record<string, unknown>, path: string): SchemaProblem[] {
  return ['title', 'description']
    .filter((key) => own(node, key) !== undefined && typeof own(node, key) !== 'string')
    .map((key) => problem(pointer(path, key), `${key} must be a string`));
}

function checkDefault(node: Record<string, unknown>, path: string): SchemaProblem[] {
  const fallback = own(node, 'default');
  if (fallback === undefined) return [];
  const field = describeField('', node, false);
  const message = field && checkField(field, fallback as FormValue);
  if (message === undefined) return [];
  return [
    problem(
      pointer(path, 'default'),
      `default ${JSON.stringify(fallback)} does not fit this field (${message.charAt(0).toLowerCase()}` +
        `${message.slice(1)}); change it or remove it`,
    ),
  ];
}

/**
 * Checks one field's schema (a property of a requestedSchema). `path` is the JSON pointer of the
 * field; every problem's path starts with it.
 */
export function checkFieldSchema(node: unknown, path: string): SchemaProblem[] {
  if (!isRecord(node)) {
    return [problem(path, 'each field must be a schema object, like { "type": "string" }')];
  }
  const shape = shapeOf(node);
  if (!shape) return checkType(node, path);
  const problems: SchemaProblem[] = [];
  for (const key of Object.keys(node)) {
    if (shape.allowed.includes(key)) continue;
    const refusal = shape.refusals && Object.hasOwn(shape.refusals, key) ? shape.refusals[key] : undefined;
    problems.push(problem(pointer(path, key), refusal ?? keywordMessage(key, shape.name, shape.allowed)));
  }
  problems.push(...checkAnnotations(node, path), ...shape.check(node, path));
  if (problems.length === 0) problems.push(...checkDefault(node, path));
  return problems;
}
