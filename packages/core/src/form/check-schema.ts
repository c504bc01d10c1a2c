import { checkFieldSchema } from './check-field-schema.js';
import { isRecord, own } from './json.js';
import { pointer, problem } from './problems.js';
import type { SchemaProblem } from './types.js';

const ROOT_KEYS = ['$schema', 'type', 'properties', 'required'];

const ROOT_REFUSALS: Record<string, string> = {
  additionalProperties:
    'additionalProperties cannot be sent; a form has exactly the fields in properties, so remove it',
  patternProperties: 'patternProperties cannot be sent; list each field by name in properties',
  $ref: '$ref cannot be sent; inline the schema',
  $defs: '$defs cannot be sent; inline each schema where it is used',
  definitions: 'definitions cannot be sent; inline each schema where it is used',
  allOf: 'composition cannot be sent at the root; a form is one flat object of fields',
  anyOf: 'composition cannot be sent at the root; a form is one flat object of fields',
  oneOf: 'composition cannot be sent at the root; a form is one flat object of fields',
  not: 'composition cannot be sent at the root; a form is one flat object of fields',
  title: 'a form has no title on the wire; say it in the elicitation message instead',
  description: 'a form has no description on the wire; say it in the elicitation message instead',
};

function checkRootKeys(schema: Record<string, unknown>): SchemaProblem[] {
  return Object.keys(schema)
    .filter((key) => !ROOT_KEYS.includes(key))
    .map((key) =>
      problem(
        pointer('', key),
        Object.hasOwn(ROOT_REFUSALS, key)
          ? ROOT_REFUSALS[key]!
          : `unknown keyword "${key}" at the root; remove it (allowed: ${ROOT_KEYS.join(', ')})`,
      ),
    );
}

function checkRootType(type: unknown): SchemaProblem[] {
  if (type === 'object') return [];
  if (type === undefined) return [problem('/type', 'add type: "object" at the root')];
  return [
    problem(
      '/type',
      `the root must be type "object" (a form of fields), not ${JSON.stringify(type)}; to ask one value, ` +
        'put it in a form with a single field (a bare ask.text() and friends do this for you)',
    ),
  ];
}

function checkProperties(properties: unknown): SchemaProblem[] {
  if (!isRecord(properties)) {
    return [
      problem('/properties', 'properties must be an object of fields, like { "name": { "type": "string" } }'),
    ];
  }
  return Object.entries(properties).flatMap(([name, node]) =>
    checkFieldSchema(node, pointer('/properties', name)),
  );
}

function checkRequired(required: unknown, properties: unknown): SchemaProblem[] {
  if (required === undefined) return [];
  if (!Array.isArray(required)) return [problem('/required', 'required must be a list of field names')];
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  required.forEach((name, index) => {
    const path = pointer('/required', index);
    if (typeof name !== 'string') {
      problems.push(problem(path, 'each required entry must be a field name (a string)'));
    } else if (seen.has(name)) {
      problems.push(problem(path, `"${name}" is listed twice; list each required field once`));
    } else if (isRecord(properties) && !Object.hasOwn(properties, name)) {
      problems.push(
        problem(
          path,
          `"${name}" is not a field of this form; add it to properties or remove it from required`,
        ),
      );
    }
    if (typeof name === 'string') seen.add(name);
  });
  return problems;
}

/**
 * Checks a `requestedSchema` against the subset MCP form elicitation allows (the spec's "Requested Schema"): a flat
 * object whose fields are text, numbers, booleans, choices and multi-selects. Returns `[]` when the
 * schema fits; otherwise one problem per violation, each with a JSON pointer and the fix. Never
 * throws.
 *
 * @example
 * checkRequestedSchema({ type: 'object', properties: { age: { type: 'integer', minimum: 5, maximum: 1 } } });
 * // [{ path: '/properties/age/minimum', message: 'minimum (5) is greater than maximum (1), so no answer fits; ...' }]
 */
export function checkRequestedSchema(schema: unknown): SchemaProblem[] {
  try {
    if (!isRecord(schema)) {
      return [problem('', 'requestedSchema must be an object: { "type": "object", "properties": { ... } }')];
    }
    const properties = own(schema, 'properties');
    const schemaUri = own(schema, '$schema');
    return [
      ...checkRootKeys(schema),
      ...(schemaUri === undefined || typeof schemaUri === 'string'
        ? []
        : [problem('/$schema', '$schema must be a string (a JSON Schema dialect URI)')]),
      ...checkRootType(own(schema, 'type')),
      ...(properties === undefined
        ? [problem('/properties', 'add properties: { "<field name>": <field schema>, ... }')]
        : checkProperties(properties)),
      ...checkRequired(own(schema, 'required'), properties),
    ];
  } catch (error) {
    return [problem('', `the schema could not be read (${String(error)}); send plain JSON data`)];
  }
}
