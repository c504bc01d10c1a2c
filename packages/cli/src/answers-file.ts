import { readFile } from 'node:fs/promises';
import type { ScriptedAnswers } from '@parley/client';
import { UsageError } from './exit-codes.js';

/**
 * Reads an `--answers` file: a JSON object keyed by question (the question's key, or its message
 * text) whose values are one answer or a list used in order, or a JSON list used in order. An
 * answer is `{ "action": "accept", "content": {...} }`, `{ "action": "decline" }`,
 * `{ "action": "cancel" }`, or a plain object (accept with that content). A sampling request is
 * answered with a CreateMessageResult (`{ "role": "assistant", "content": { "type": "text", "text":
 * "..." }, "model": "..." }`) or `{ "action": "decline" }`; `parley` declares sampling only when the
 * file holds at least one such reply.
 */
export async function readAnswersFile(path: string): Promise<ScriptedAnswers> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read the answers file ${path}: ${(error as Error).message}`);
  }
  let answers: unknown;
  try {
    answers = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`The answers file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof answers !== 'object' || answers === null) {
    throw new UsageError(
      `The answers file ${path} must hold a JSON object keyed by question (or a list of answers in order)`,
    );
  }
  return answers as ScriptedAnswers;
}
