import { describe, expect, it } from 'vitest';
import type { QuestionPageData } from './page-data.js';
import { readQuestionPageData } from './page-data.js';
import { questionPageHtml } from './page-html.js';

const HOSTILE = '</script><script>alert(1)</script><!-- & &amp; \u2028 "\'';

const DATA: QuestionPageData = {
  v: 1,
  server: { name: 'brightgrid', title: `Bright<b>grid</b> ${HOSTILE}` },
  call: { kind: 'tool', name: 'book_return' },
  message: `Boxes? ${HOSTILE}`,
  requestedSchema: { type: 'object', properties: { boxes: { type: 'integer', title: HOSTILE } } },
  secretFields: [],
  csrf: 'c5rf',
  expiresAt: 1_800_000_000_000,
  answerUrl: 'https://shop.example/parley/q/abc/answer',
  after: 'retry',
};

function island(html: string): string {
  const start = html.indexOf('<script type="application/json" id="parley-question">');
  const end = html.indexOf('</script>', start);
  return html.slice(start + '<script type="application/json" id="parley-question">'.length, end);
}

describe('questionPageHtml', () => {
  const html = questionPageHtml(DATA, { assetsBase: '/parley/q/assets/' });

  it('carries the data in an island that no server text can close, and the page reads it back whole', () => {
    const text = island(html);
    expect(text).not.toMatch(/[<>]/);
    expect(text).not.toContain('&');
    expect(readQuestionPageData(JSON.parse(text), 'https://shop.example')).toEqual({ ok: true, data: DATA });
    // Two script elements: the module and the island.
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('escapes who asks in the title and the heading', () => {
    const title = `Bright&lt;b&gt;grid&lt;/b&gt; &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- &amp; &amp;amp; \u2028 &quot;&#39; asks a question`;
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(`<h1>${title}</h1>`);
  });

  it('links one stylesheet and one module script under the assets base, and nothing inline', () => {
    expect(html).toContain('<link rel="stylesheet" href="/parley/q/assets/question-page.css">');
    expect(html).toContain('<script type="module" src="/parley/q/assets/question-page.js"></script>');
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/i);
    expect(html).toContain('<main id="parley-question-page" aria-live="polite">');
  });

  it('falls back to the server name for the title', () => {
    const plain = questionPageHtml(
      { ...DATA, server: { name: 'brightgrid' } },
      { assetsBase: 'https://a.example/x' },
    );
    expect(plain).toContain('<title>brightgrid asks a question</title>');
    expect(plain).toContain('href="https://a.example/x/question-page.css"');
  });
});
