// What the Check button does: run the learner's code in the sandbox and compare the value of its last
// line with the exercise's answer.

import type { ExerciseData } from '../exercises.js';
import { canonical } from './program.js';
import { runInSandbox } from './run.js';

/** The result of one Check: `value` is the last line's value (canonical JSON) when the code ran. */
export type Verdict =
  | { readonly pass: boolean; readonly value: string }
  | { readonly pass: false; readonly error: string };

/** Reads the data the markdown plugin put on an <Exercise> (base64 of UTF-8 JSON). */
export function decodeExercise(data: string): ExerciseData {
  const bytes = Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as ExerciseData;
}

/** Runs `code` in a sandbox worker and compares its last line with `exercise.expected`. */
export async function check(exercise: ExerciseData, code: string): Promise<Verdict> {
  const outcome = await runInSandbox(code);
  if (!outcome.ok) return { pass: false, error: outcome.error };
  return { pass: outcome.value === canonical(exercise.expected), value: outcome.value };
}
