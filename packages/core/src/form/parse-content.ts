import { prepareQuestion } from './prepare.js';
import { SchemaError } from './schema-error.js';
import type { Answer, ParseResult, QuestionInput } from './types.js';

/**
 * Checks the content of an accepted form answer against a question and returns the typed value
 * (unwrapped for a bare field), or one human message per bad field. The host runs it before
 * sending and the server after receiving: the same rules on both sides. Never throws; a question
 * outside the subset yields errors on field `''`.
 *
 * @example
 * parseContent(ask.choice(['low', 'high']), { value: 'low' }); // { ok: true, value: 'low' }
 * parseContent(ask.form({ age: ask.integer({ min: 1, max: 3 }) }), { age: 7 });
 * // { ok: false, errors: [{ field: 'age', message: 'Enter a whole number between 1 and 3' }] }
 */
export function parseContent<Q extends QuestionInput>(question: Q, content: unknown): ParseResult<Answer<Q>> {
  try {
    return prepareQuestion(question).parse(content);
  } catch (error) {
    if (error instanceof SchemaError) {
      return {
        ok: false,
        errors: error.problems.map((item) => ({
          field: '',
          message: `The question cannot be asked: ${item.path === '' ? '' : `${item.path}: `}${item.message}`,
        })),
      };
    }
    return {
      ok: false,
      errors: [{ field: '', message: `The answer could not be checked: ${String(error)}` }],
    };
  }
}
