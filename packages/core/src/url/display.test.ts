import { describe, expect, it } from 'vitest';
import { splitHostForDisplay } from './display.js';
import { inspectUrl } from './inspect.js';

function split(url: string) {
  return splitHostForDisplay(inspectUrl(url));
}

describe('splitHostForDisplay', () => {
  it('separates the subdomain from the registrable domain that really owns the host', () => {
    expect(split('https://login.example.com.evil.io/x')).toEqual({
      before: 'login.example.com.',
      registrable: 'evil.io',
      after: '',
    });
  });

  it('emphasizes a multi-label suffix domain whole', () => {
    expect(split('https://www.bbc.co.uk/')).toEqual({ before: 'www.', registrable: 'bbc.co.uk', after: '' });
  });

  it('treats a private-suffix site as its own owner', () => {
    expect(split('https://docs.alice.github.io/')).toEqual({
      before: 'docs.',
      registrable: 'alice.github.io',
      after: '',
    });
  });

  it('works on the Unicode host a person reads', () => {
    expect(split('https://www.xn--80ak6aa92e.com/')).toEqual({
      before: 'www.',
      registrable: '\u0430\u0440\u0440\u04cf\u0435.com',
      after: '',
    });
  });

  it('keeps a trailing root dot apart', () => {
    expect(split('https://www.example.com./')).toEqual({
      before: 'www.',
      registrable: 'example.com',
      after: '.',
    });
  });

  it('emphasizes the whole host when there is no registrable domain', () => {
    expect(split('https://192.168.0.1/')).toEqual({ before: '', registrable: '192.168.0.1', after: '' });
    expect(split('http://localhost:5173/')).toEqual({ before: '', registrable: 'localhost', after: '' });
    expect(split('https://co.uk/')).toEqual({ before: '', registrable: 'co.uk', after: '' });
  });

  it('gives three empty parts when there is no host', () => {
    expect(split('javascript:alert(1)')).toEqual({ before: '', registrable: '', after: '' });
    expect(split('not a url')).toEqual({ before: '', registrable: '', after: '' });
  });

  it('always puts the whole host back together', () => {
    for (const url of ['https://a.b.c.example.co.uk/', 'https://[::1]/', 'https://x.y.foo.local/']) {
      const { before, registrable, after } = split(url);
      expect(before + registrable + after).toBe(inspectUrl(url).unicodeHost);
    }
  });
});
