import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type QuestionPageAssetName, questionPageAsset } from './assets.js';

const built = existsSync(fileURLToPath(new URL('../../dist/page/question-page.js', import.meta.url)));

describe('questionPageAsset', () => {
  it.runIf(built)('reads the built script and stylesheet once, with their types', () => {
    const script = questionPageAsset('question-page.js');
    expect(script.type).toBe('text/javascript; charset=utf-8');
    expect(new TextDecoder().decode(script.body)).toContain('parley-question-page');
    expect(questionPageAsset('question-page.js')).toBe(script);
    const css = questionPageAsset('question-page.css');
    expect(css.type).toBe('text/css; charset=utf-8');
    const text = new TextDecoder().decode(css.body);
    // The one stylesheet holds the renderer's rules and the page's, and imports nothing.
    expect(text).toContain('.parley-elicitation');
    expect(text).toContain('#parley-question-page');
    expect(text).not.toContain('@import');
  });

  it('refuses any other name, which may come from a URL', () => {
    for (const name of ['../package.json', 'question-page.js.map', 'constructor', 'index.js']) {
      expect(() => questionPageAsset(name as QuestionPageAssetName)).toThrow(
        /No question page asset is named .*; there are question-page.js and question-page.css/,
      );
    }
  });

  it('names the build command when the page was not built', async () => {
    // The same module, two folders below a package root that has no dist/page.
    const root = mkdtempSync(join(tmpdir(), 'parley-renderer-'));
    try {
      mkdirSync(join(root, 'src', 'question-page'), { recursive: true });
      const copy = join(root, 'src', 'question-page', 'assets.ts');
      copyFileSync(fileURLToPath(new URL('./assets.ts', import.meta.url)), copy);
      const module = (await import(pathToFileURL(copy).href)) as typeof import('./assets.js');
      expect(() => module.questionPageAsset('question-page.css')).toThrow(
        `The question page is not built (no ${join(root, 'dist', 'page', 'question-page.css')}); run: npm run build`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
