import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { html, page } from './html.js';

describe('html', () => {
  it('escapes interpolated text but keeps nested html as it is', () => {
    const name = '<script>alert("x")</script> & \'co\'';
    expect(html`<p title="${name}">${html`<b>${name}</b>`}</p>`.text).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;"><b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</b></p>',
    );
  });

  it('renders lists and leaves out empty values', () => {
    expect(html`<ul>${['a', 'b'].map((item) => html`<li>${item}</li>`)}</ul>${undefined}${false}`.text).toBe(
      '<ul><li>a</li><li>b</li></ul>',
    );
  });

  it('serves pages whose only allowed style is their own stylesheet', async () => {
    const response = page('Title <1>', html`<p>Body</p>`);
    const text = await response.text();
    expect(text).toContain('<title>Title &lt;1&gt; · Brightgrid</title>');
    const csp = response.headers.get('content-security-policy')!;
    const hash = /style-src 'sha256-([^']+)'/.exec(csp)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(text)![1]!;
    expect(createHash('sha256').update(style).digest('base64')).toBe(hash);
    expect(csp).toContain("default-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });
});
