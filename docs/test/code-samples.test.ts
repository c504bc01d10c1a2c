// Every code sample of the site type-checks, as written: the READMEs' and the guide's blocks and the
// exercises' starter and solution code.

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiExamples, codeSamples, typeCheck } from '../site/code-samples.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const samples = [...codeSamples(root), ...apiExamples(root)];
const checked = typeCheck(root, samples);
const files = [...new Set(samples.map((sample) => sample.file))];

describe('code samples', () => {
  it('are found in the guide, with its exercises, and in every package README', () => {
    const guide = samples.filter((sample) => sample.file === 'docs/guide/README.md');
    expect(guide.length).toBeGreaterThanOrEqual(8 + 2 * 10);
    for (const name of ['core', 'server', 'client'])
      expect(files, name).toContain(`packages/${name}/README.md`);
    expect(samples.filter((sample) => sample.file.startsWith('docs/api/')).length).toBeGreaterThan(50);
  });

  it('may lean on a prelude that type-checks itself', () => {
    expect(checked.prelude).toEqual([]);
  });

  it.each(files)('%s: every TypeScript and JavaScript block type-checks', (file) => {
    expect(checked.samples.filter((_, index) => samples[index]!.file === file).flat()).toEqual([]);
  });
});
