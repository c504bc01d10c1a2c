// The guide's exercises, read through the same markdown plugin the site uses and run in Node through
// the same program runner as the site's sandbox: each solution gives the expected value and each
// starter does not. (docs/test/exercises.test.ts presses the real Check buttons in Chromium.)

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as core from '@parley/core';
import * as capabilities from '@parley/core/capabilities';
import * as form from '@parley/core/form';
import * as seal from '@parley/core/seal';
import * as url from '@parley/core/url';
import { slug } from 'github-slugger';
import { createMarkdownRenderer } from 'vitepress';
import { describe, expect, it } from 'vitest';
import { type ExerciseData, exercisePlugin } from './exercises.js';
import { decodeExercise } from './sandbox/check.js';
import { canonical, runProgram } from './sandbox/program.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const guideFile = `${root}docs/guide/README.md`;
const modules = {
  '@parley/core': core,
  '@parley/core/capabilities': capabilities,
  '@parley/core/form': form,
  '@parley/core/seal': seal,
  '@parley/core/url': url,
};

/** Each exercise of the guide, with the step it is in. */
async function guideExercises(): Promise<{ step: string; exercise: ExerciseData }[]> {
  const md = await createMarkdownRenderer(root, { anchor: { slugify: slug }, config: exercisePlugin });
  const html = await md.renderAsync(readFileSync(guideFile, 'utf8'), {
    path: guideFile,
    relativePath: 'guide.md',
  });
  const found: { step: string; exercise: ExerciseData }[] = [];
  let step = 'intro';
  for (const match of html.matchAll(/<h2 id="([^"]+)"|<Exercise data="([^"]+)"/g)) {
    if (match[1]) step = match[1];
    else found.push({ step, exercise: decodeExercise(match[2]!) });
  }
  return found;
}

const exercises = await guideExercises();
const steps = [...readFileSync(guideFile, 'utf8').matchAll(/^## (\d+\. .+)$/gm)].map((match) =>
  slug(match[1]!),
);

describe('the guide exercises', () => {
  it('has at least ten, with distinct ids, and at least one in every step', () => {
    expect(exercises.length).toBeGreaterThanOrEqual(10);
    expect(new Set(exercises.map(({ exercise }) => exercise.id)).size).toBe(exercises.length);
    expect(steps.length).toBe(8);
    for (const step of steps)
      expect(
        exercises.some((item) => item.step === step),
        step,
      ).toBe(true);
  });

  it.each(exercises.map(({ exercise }) => [exercise.id, exercise] as const))(
    '%s: the solution gives the expected value, the starter does not',
    async (_, exercise) => {
      const expected = canonical(exercise.expected);
      expect(await runProgram(exercise.solution, modules)).toEqual({ ok: true, value: expected });
      const starter = await runProgram(exercise.starter, modules);
      expect(starter.ok, starter.ok ? '' : starter.error).toBe(true);
      expect(starter).not.toEqual({ ok: true, value: expected });
    },
  );
});
