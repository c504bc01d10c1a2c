import { isRecord, own, plainCopy } from './json.js';
import { pointer, problem } from './problems.js';
import type { RequestedSchema, SchemaProblem } from './types.js';

/** The protocol revision whose forms lack titled oneOf, multi-select and non-boolean defaults. */
const OLDEST_FORMS = '2025-06-18';

function downgradeField(node: Record<string, unknown>, path: string, problems: SchemaProblem[]): void {
  if (node.type === 'array') {
    problems.push(
      problem(
        path,
        `${OLDEST_FORMS} clients cannot answer a multi-select; ask with ask.choice() or several boolean ` +
          'fields for these clients',
      ),
    );
    return;
  }
  const oneOf = own(node, 'oneOf');
  if (Array.isArray(oneOf)) {
    delete node.oneOf;
    node.enum = oneOf.map((option) => (isRecord(option) ? option.const : undefined));
    node.enumNames = oneOf.map((option) => (isRecord(option) ? option.title : undefined));
  }
  if (node.type !== 'boolean') delete node.default;
}

/**
 * Adapts a checked requestedSchema to what a client of `protocolVersion` understands. For
 * `2025-06-18`: a titled oneOf choice becomes `enum` + `enumNames`, non-boolean defaults are
 * dropped, and a multi-select is a problem. Other versions get the schema unchanged. Returns fresh
 * data; never throws.
 *
 * @example
 * schemaForProtocolVersion(prepareQuestion(ask.choice({ lo: 'Low', hi: 'High' })).schema, '2025-06-18');
 * // { ok: true, schema: { ..., properties: { value: { type: 'string', enum: ['lo', 'hi'], enumNames: ['Low', 'High'] } } } }
 */
export function schemaForProtocolVersion(
  schema: RequestedSchema,
  protocolVersion: string,
): { ok: true; schema: RequestedSchema } | { ok: false; problems: SchemaProblem[] } {
  try {
    const copy = plainCopy(schema);
    if (protocolVersion !== OLDEST_FORMS || !isRecord(copy)) return { ok: true, schema: copy };
    const properties = own(copy, 'properties');
    const problems: SchemaProblem[] = [];
    if (isRecord(properties)) {
      for (const [name, node] of Object.entries(properties)) {
        if (isRecord(node)) downgradeField(node, pointer('/properties', name), problems);
      }
    }
    return problems.length > 0 ? { ok: false, problems } : { ok: true, schema: copy };
  } catch (error) {
    return { ok: false, problems: [problem('', `the schema could not be read (${String(error)})`)] };
  }
}
