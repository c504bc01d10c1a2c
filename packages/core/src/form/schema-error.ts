import { describeProblems } from './problems.js';
import type { SchemaProblem } from './types.js';

/**
 * Thrown when a question cannot be sent because it leaves the MCP requestedSchema subset. The
 * message lists every problem; `problems` has them as data.
 *
 * @example
 * try {
 *   ask.choice([]);
 * } catch (error) {
 *   if (error instanceof SchemaError) console.log(error.problems); // [{ path: '/enum', message: '...' }]
 * }
 */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  readonly problems: readonly SchemaProblem[];

  constructor(problems: readonly SchemaProblem[], intro = 'This question cannot be sent as an MCP form') {
    super(`${intro}:\n${describeProblems(problems)}`);
    this.problems = Object.freeze(problems.map((item) => Object.freeze({ ...item })));
  }
}
