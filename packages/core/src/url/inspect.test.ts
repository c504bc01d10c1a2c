import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectUrl } from './inspect.js';
import { LONG_URL_LENGTH, type UrlInspection } from './types.js';

function messageOf(inspection: UrlInspection, code: string): string {
  const warning = inspection.warnings.find((w) => w.code === code);
  if (!warning) throw new Error(`no ${code} warning in ${JSON.stringify(inspection.warnings)}`);
  return warning.message;
}

describe('inspectUrl fields', () => {
  it('reports the URL as the browser will load it', () => {
    expect(inspectUrl('  HTTPS://Login.Example.COM:443/a/../b?q=1#top ')).toEqual({
      allowed: true,
      href: 'https://login.example.com/b?q=1#top',
      scheme: 'https',
      host: 'login.example.com',
      unicodeHost: 'login.example.com',
      registrableDomain: 'example.com',
      port: '',
      warnings: [],
    });
  });

  it('gives the ASCII host the browser resolves and the Unicode host a person reads', () => {
    const inspection = inspectUrl('https://www.\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/');
    expect(inspection.host).toBe('www.xn--e1afmkfd.xn--p1ai');
    expect(inspection.unicodeHost).toBe('www.\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444');
    expect(inspection.registrableDomain).toBe('xn--e1afmkfd.xn--p1ai');
  });

  it('takes the registrable domain from both sections of the public-suffix list', () => {
    expect(inspectUrl('https://alice.github.io/').registrableDomain).toBe('alice.github.io');
    expect(inspectUrl('https://s3.amazonaws.com/bucket/key').registrableDomain).toBe('amazonaws.com');
    expect(inspectUrl('https://www.example.co.uk/').registrableDomain).toBe('example.co.uk');
  });

  it('has no registrable domain for addresses, loopback names and bare suffixes', () => {
    expect(inspectUrl('https://8.8.8.8/').registrableDomain).toBeNull();
    expect(inspectUrl('https://[2001:db8::1]/').host).toBe('[2001:db8::1]');
    expect(inspectUrl('http://localhost:5173/').registrableDomain).toBeNull();
    expect(inspectUrl('https://co.uk/').registrableDomain).toBeNull();
  });

  it('keeps an explicit port and drops the default one', () => {
    expect(inspectUrl('http://localhost:5173/').port).toBe('5173');
    expect(inspectUrl('https://example.com:443/').port).toBe('');
    expect(inspectUrl('http://example.com:443/').port).toBe('443');
  });

  it('names the scheme of URLs it refuses', () => {
    const inspection = inspectUrl('javascript:alert(1)');
    expect(inspection).toMatchObject({ allowed: false, scheme: 'javascript', host: '', unicodeHost: '' });
  });

  it('is empty and refused for text that is not a URL', () => {
    expect(inspectUrl('::')).toMatchObject({ allowed: false, href: '', scheme: '', host: '', port: '' });
    expect(inspectUrl(undefined as unknown as string).warnings.map((w) => w.code)).toEqual(['unparsable']);
    expect(inspectUrl({ toString: () => 'https://example.com' } as unknown as string).allowed).toBe(false);
  });

  it('does not let http off loopback through, whatever else is right', () => {
    expect(inspectUrl('http://example.com/').allowed).toBe(false);
    expect(inspectUrl('http://localhost.example.com/').allowed).toBe(false);
    expect(inspectUrl('http://127.0.0.1/').allowed).toBe(true);
  });
});

describe('inspectUrl messages', () => {
  it('shows both forms of an internationalized host', () => {
    const message = messageOf(inspectUrl('https://\u0430pple.com/'), 'punycode');
    expect(message).toContain("'\u0430pple.com'");
    expect(message).toContain("'xn--pple-43d.com'");
  });

  it('says what a look-alike host imitates and which characters are foreign', () => {
    expect(messageOf(inspectUrl('https://\u0430pple.com/'), 'confusable')).toBe(
      "The address uses look-alike characters: '\u0430pple.com' is not 'apple.com' " +
        "(in '\u0430pple', character 1 is a Cyrillic letter that looks like 'a').",
    );
    expect(messageOf(inspectUrl('https://g\u03bf\u03bfgle.com/'), 'confusable')).toContain(
      "characters 2 and 3 are Greek letters that look like 'o'",
    );
  });

  it('names the scripts a label mixes', () => {
    expect(messageOf(inspectUrl('https://p\u0430y\u03c1al.com/'), 'mixed-script')).toContain(
      "'p\u0430y\u03c1al' mixes Latin, Cyrillic and Greek letters",
    );
  });

  it('names the domain the host pretends to be and the one it really is', () => {
    const message = messageOf(inspectUrl('https://login.example.com.evil.io/'), 'lookalike-domain');
    expect(message).toContain("starts like 'example.com'");
    expect(message).toContain("leads to 'evil.io'");
  });

  it('says where a URL with user info really leads', () => {
    const message = messageOf(inspectUrl('https://example.com@evil.io/'), 'userinfo');
    expect(message).toContain("'example.com'");
    expect(message).toContain("it leads to 'evil.io'");
  });

  it('shows a disguised IP address in both forms', () => {
    const message = messageOf(inspectUrl('https://0xC0A80001/'), 'obfuscated-ip');
    expect(message).toContain("'0xC0A80001'");
    expect(message).toContain('192.168.0.1');
  });

  it('tells a private-network address from a public one', () => {
    expect(messageOf(inspectUrl('https://10.0.0.1/'), 'ip-literal')).toContain('private network');
    expect(messageOf(inspectUrl('https://8.8.8.8/'), 'ip-literal')).not.toContain('private network');
  });

  it('counts hidden characters', () => {
    expect(messageOf(inspectUrl('https://e\u200bx\u200bample.com/'), 'invisible-characters')).toContain(
      '2 hidden characters',
    );
  });

  it('flags length only past the limit', () => {
    const base = 'https://example.com/?q=';
    const atLimit = base + 'a'.repeat(LONG_URL_LENGTH - base.length);
    expect(inspectUrl(atLimit).warnings).toEqual([]);
    expect(inspectUrl(`${atLimit}a`).warnings.map((w) => w.code)).toEqual(['long-url']);
  });

  it('keeps attacker-chosen user names short and still encoded', () => {
    const message = messageOf(inspectUrl(`https://<b>${'x'.repeat(500)}@example.com/`), 'userinfo');
    expect(message).toContain('%3Cb%3E');
    expect(message.length).toBeLessThan(250);
  });
});

describe('inspectUrl on arbitrary input', () => {
  const anyText = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc
      .tuple(
        fc.constantFrom('https://', 'http://', 'javascript:', 'https://user@'),
        fc.string({ unit: 'binary' }),
      )
      .map(([head, tail]) => head + tail),
  );

  it('never throws, and refuses exactly when it finds the URL unparsable or unsafe to open', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const inspection = inspectUrl(text);
        const codes = inspection.warnings.map((w) => w.code);
        const blocking = codes.filter((c) =>
          ['unparsable', 'scheme-not-allowed', 'insecure-http'].includes(c),
        );
        expect(inspection.allowed).toBe(blocking.length === 0);
        if (inspection.allowed) expect(['http', 'https']).toContain(inspection.scheme);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes messages as plain text: no markup, no control characters', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        for (const { message } of inspectUrl(text).warnings) {
          expect(message).not.toMatch(/[<>]|\p{Cc}/u);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('inspectUrl on oversized hosts', () => {
  it('keeps messages short and both ends of a long host visible', () => {
    const host = `${Array.from({ length: 5000 }, (_, i) => `\u0430-${i % 10}`).join('.')}.evil.io`;
    const inspection = inspectUrl(`https://${host}/`);
    expect(inspection.warnings.map((w) => w.code)).toEqual([
      'confusable',
      'punycode',
      'deep-subdomain',
      'long-url',
    ]);
    for (const { message } of inspection.warnings) expect(message.length).toBeLessThan(700);
    expect(messageOf(inspection, 'confusable')).toContain('; and 4997 more');
    expect(messageOf(inspection, 'punycode')).toContain('evil.io');
  });
});
