import {
  fromJsonSchema,
  type JsonSchemaType,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';

/**
 * A tool's input (or output) schema written as plain JSON Schema (2020-12 by default), for what
 * zod cannot say: `$defs` with `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`,
 * `additionalProperties`, or an `x-mcp-header` annotation. The schema is listed exactly as given
 * and arguments are validated against it.
 *
 * @example
 * server.tool('lookup', {
 *   input: jsonSchema({
 *     $schema: 'https://json-schema.org/draft/2020-12/schema',
 *     type: 'object',
 *     properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
 *     required: ['region'],
 *     additionalProperties: false,
 *   }),
 * }, ({ region }) => `Looking up ${region}`);
 */
export function jsonSchema<T = Record<string, unknown>>(
  schema: Record<string, unknown>,
): StandardSchemaWithJSON<T, T> {
  if (schema.type !== 'object')
    throw new TypeError('jsonSchema() takes an object schema ({ type: "object", properties: { ... } }).');
  return fromJsonSchema<T>(schema as JsonSchemaType);
}
