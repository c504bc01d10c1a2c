import { describe, expect, it } from 'vitest';
import { inspectUrl } from './inspect.js';
import type { UrlWarningCode } from './types.js';

interface HostileCase {
  readonly url: string;
  readonly allowed: boolean;
  readonly codes: readonly UrlWarningCode[];
  /** Asserted when the point of the case is who really owns the host. */
  readonly registrable?: string | null;
}

const homograph: readonly UrlWarningCode[] = ['confusable', 'mixed-script', 'punycode'];
const wholeScriptHomograph: readonly UrlWarningCode[] = ['confusable', 'punycode'];

// Warnings appear in a fixed order (most severe first), so each case lists them in that order.
const cases: Record<string, readonly HostileCase[]> = {
  'Cyrillic homographs': [
    { url: 'https://\u0430pple.com/', allowed: true, codes: homograph }, // а
    { url: 'https://\u0430\u0440\u0440\u04cf\u0435.com/', allowed: true, codes: wholeScriptHomograph }, // аррӏе
    { url: 'https://xn--80ak6aa92e.com/', allowed: true, codes: wholeScriptHomograph }, // аррӏе, sent as punycode
    { url: 'https://\u0440\u0430\u0443\u0440\u0430l.com/', allowed: true, codes: homograph }, // раураl
    { url: 'https://g\u043e\u043egle.com/', allowed: true, codes: homograph }, // gооgle
    { url: 'https://micr\u043esoft.com/login', allowed: true, codes: homograph },
    { url: 'https://www.\u0430mazon.com/signin', allowed: true, codes: homograph },
    { url: 'https://\u0441itibank.com/', allowed: true, codes: homograph }, // с
    { url: 'https://\u0455lack.com/', allowed: true, codes: homograph }, // ѕ
    { url: 'https://\u0435\u0445\u0430mple.com/', allowed: true, codes: homograph }, // еха
    {
      url: 'https://github.\u0441\u043em/', // the ending is Cyrillic 'со' + Latin 'm'
      allowed: true,
      codes: ['confusable', 'mixed-script', 'punycode', 'unknown-suffix'],
    },
  ],
  'Greek, Armenian and Latin-variant homographs': [
    { url: 'https://g\u03bf\u03bfgle.com/', allowed: true, codes: homograph }, // Greek omicron
    { url: 'https://\u03b1pple.com/', allowed: true, codes: homograph }, // α
    { url: 'https://yah\u03bf\u03bf.com/', allowed: true, codes: homograph },
    { url: 'https://\u03bdisa.com/', allowed: true, codes: homograph }, // ν for v
    { url: 'https://\u0430\u03c1ple.com/', allowed: true, codes: homograph }, // Cyrillic а, Greek ρ, Latin
    { url: 'https://g\u0585\u0585gle.com/', allowed: true, codes: homograph }, // Armenian օ
    { url: 'https://\u0261oogle.com/', allowed: true, codes: wholeScriptHomograph }, // ɡ is Latin, not ASCII
    { url: 'https://l\u0131nkedin.com/', allowed: true, codes: wholeScriptHomograph }, // dotless ı
    { url: 'https://pay\u2010pal.com/', allowed: true, codes: wholeScriptHomograph }, // Unicode hyphen
    { url: 'https://example.com\u2215login.evil.io/', allowed: true, codes: wholeScriptHomograph }, // ∕
    { url: 'https://accounts.google.com\u2044signin.evil.io/', allowed: true, codes: wholeScriptHomograph }, // ⁄
  ],
  'international names that are not look-alikes': [
    { url: 'https://bank\u043e\u0444america.com/', allowed: true, codes: ['mixed-script', 'punycode'] }, // оф
    { url: 'https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/', allowed: true, codes: ['punycode'] }, // пример.рф
    {
      url: 'https://\u03b5\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac.gr/',
      allowed: true,
      codes: ['punycode'],
    }, // ελληνικά
    { url: 'https://m\u00fcnchen.de/', allowed: true, codes: ['punycode'] },
    { url: 'https://\u4f8b\u3048.jp/', allowed: true, codes: ['punycode'] }, // Han + Hiragana
    { url: 'https://\u4f8b\u3048.\u30c6\u30b9\u30c8/', allowed: true, codes: ['punycode', 'unknown-suffix'] }, // .テスト is a test TLD
    { url: 'https://abc\u30c6\u30b9\u30c8.jp/', allowed: true, codes: ['punycode'] }, // Latin + Katakana
  ],
  'user info tricks': [
    { url: 'https://user:secret@example.com/', allowed: true, codes: ['userinfo'] },
    { url: 'https://example.com@evil.io/', allowed: true, codes: ['userinfo'], registrable: 'evil.io' },
    {
      url: 'https://accounts.google.com:443@evil.io/',
      allowed: true,
      codes: ['userinfo'],
      registrable: 'evil.io',
    },
    {
      url: 'https://login.microsoftonline.com@192.168.0.1/',
      allowed: true,
      codes: ['userinfo', 'ip-literal'],
      registrable: null,
    },
    // The parser reads '\' as '/', so the host really is evil.io and the href shows it plainly.
    { url: 'https://evil.io\\@example.com/', allowed: true, codes: [], registrable: 'evil.io' },
    { url: 'https://www.paypal.com%40evil.io/', allowed: false, codes: ['unparsable'] },
  ],
  'IP literals in every form': [
    {
      url: 'http://3232235777/',
      allowed: false,
      codes: ['insecure-http', 'obfuscated-ip', 'ip-literal'],
    },
    { url: 'https://3232235777/', allowed: true, codes: ['obfuscated-ip', 'ip-literal'] }, // decimal
    { url: 'https://0xC0A80001/', allowed: true, codes: ['obfuscated-ip', 'ip-literal'] }, // hex
    { url: 'https://0300.0250.0.1/', allowed: true, codes: ['obfuscated-ip', 'ip-literal'] }, // octal
    { url: 'https://0xc0.0xa8.1.1/', allowed: true, codes: ['obfuscated-ip', 'ip-literal'] }, // hex parts
    { url: 'https://192.168.1/', allowed: true, codes: ['obfuscated-ip', 'ip-literal'] }, // shortened
    {
      url: 'https://\uff11\uff19\uff12.\uff11\uff16\uff18.\uff10.\uff11/', // full-width digits
      allowed: true,
      codes: ['obfuscated-ip', 'ip-literal'],
    },
    { url: 'https://0/', allowed: true, codes: ['obfuscated-ip', 'ip-literal'] }, // 0.0.0.0
    { url: 'https://192.168.1.1/', allowed: true, codes: ['ip-literal'] },
    { url: 'https://8.8.8.8/', allowed: true, codes: ['ip-literal'] },
    { url: 'https://93.184.216.34:8443/', allowed: true, codes: ['ip-literal', 'port'] },
    { url: 'https://[2001:db8::1]/', allowed: true, codes: ['ip-literal'] },
    { url: 'https://[fe80::1]/', allowed: true, codes: ['ip-literal'] },
    { url: 'https://[::ffff:127.0.0.1]/', allowed: true, codes: ['ip-literal'] }, // IPv4-mapped is not loopback
    { url: 'http://[::ffff:8.8.8.8]/', allowed: false, codes: ['insecure-http', 'ip-literal'] },
    // Loopback in disguise: allowed (it is this computer) but the disguise is named.
    { url: 'http://127.1/', allowed: true, codes: ['obfuscated-ip'] },
    { url: 'http://2130706433/', allowed: true, codes: ['obfuscated-ip'] },
    { url: 'http://0x7f000001:8080/', allowed: true, codes: ['obfuscated-ip'] },
  ],
  'look-alike registrable domains': [
    {
      url: 'https://login.example.com.evil.io/',
      allowed: true,
      codes: ['lookalike-domain'],
      registrable: 'evil.io',
    },
    {
      url: 'https://paypal.com-secure.example.net/',
      allowed: true,
      codes: ['lookalike-domain'],
      registrable: 'example.net',
    },
    {
      url: 'https://accounts.google.com.attacker.dev/signin',
      allowed: true,
      codes: ['lookalike-domain'],
      registrable: 'attacker.dev',
    },
    {
      url: 'https://www.bankofamerica.com.secure-login.co/',
      allowed: true,
      codes: ['lookalike-domain'],
      registrable: 'secure-login.co',
    },
    {
      url: 'https://apple.com-account-verify.info/',
      allowed: true,
      codes: ['lookalike-domain'],
      registrable: 'com-account-verify.info',
    },
    {
      url: 'https://signin.amazon.co.uk.account-update.net/',
      allowed: true,
      codes: ['lookalike-domain'],
      registrable: 'account-update.net',
    },
    {
      url: 'https://paypal.com.github.io/',
      allowed: true,
      codes: ['lookalike-domain'],
      registrable: 'com.github.io',
    },
    { url: 'https://www.irs.gov.tax-refund.help/', allowed: true, codes: ['lookalike-domain'] },
    {
      url: 'https://microsoft.com.evil.io.s3.amazonaws.com/',
      allowed: true,
      codes: ['lookalike-domain'],
      registrable: 'io.s3.amazonaws.com',
    },
    {
      url: 'https://a.b.c.login.example.com.evil.io/',
      allowed: true,
      codes: ['lookalike-domain', 'deep-subdomain'],
    },
    {
      url: 'http://accounts.google.com.evil.io/',
      allowed: false,
      codes: ['insecure-http', 'lookalike-domain'],
    },
  ],
  'deep subdomains and ports': [
    { url: 'https://a.b.c.d.e.example.com/', allowed: true, codes: ['deep-subdomain'] },
    {
      url: 'https://secure.login.account.verify.update.example.co.uk/',
      allowed: true,
      codes: ['deep-subdomain'],
      registrable: 'example.co.uk',
    },
    { url: 'https://example.com:8443/', allowed: true, codes: ['port'] },
    { url: 'https://example.com:22/', allowed: true, codes: ['port'] },
  ],
  'schemes that are never opened': [
    { url: 'javascript:alert(document.cookie)', allowed: false, codes: ['scheme-not-allowed'] },
    { url: 'JaVaScRiPt:alert(1)', allowed: false, codes: ['scheme-not-allowed'] },
    { url: '  javascript:alert(1)', allowed: false, codes: ['scheme-not-allowed'] },
    { url: 'java\tscript:alert(1)', allowed: false, codes: ['scheme-not-allowed', 'invisible-characters'] },
    {
      url: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      allowed: false,
      codes: ['scheme-not-allowed'],
    },
    { url: 'file:///etc/passwd', allowed: false, codes: ['scheme-not-allowed'] },
    { url: 'file://server/share/doc.txt', allowed: false, codes: ['scheme-not-allowed'] },
    { url: 'vbscript:msgbox(1)', allowed: false, codes: ['scheme-not-allowed'] },
    { url: 'ftp://example.com/file.zip', allowed: false, codes: ['scheme-not-allowed'] },
    { url: 'blob:https://example.com/0b2c4a2e', allowed: false, codes: ['scheme-not-allowed'] },
    { url: 'about:blank', allowed: false, codes: ['scheme-not-allowed'] },
    { url: 'mailto:someone@example.com', allowed: false, codes: ['scheme-not-allowed'] },
    { url: 'chrome://settings/passwords', allowed: false, codes: ['scheme-not-allowed'] },
    { url: 'http://example.com/login', allowed: false, codes: ['insecure-http'] },
    { url: 'http://example.com:80/', allowed: false, codes: ['insecure-http'] },
  ],
  'hidden characters': [
    { url: 'https://ex\u200bample.com/', allowed: true, codes: ['invisible-characters'] }, // zero-width space
    { url: 'https://exam\u00adple.com/', allowed: true, codes: ['invisible-characters'] }, // soft hyphen
    { url: 'https://example.com/\u202egnp.exe', allowed: true, codes: ['invisible-characters'] }, // RLO
    { url: 'https://exa\nmple.com/', allowed: true, codes: ['invisible-characters'] },
    { url: 'https://ex\u200dample.com/', allowed: false, codes: ['unparsable'] }, // ZWJ is refused by IDNA
  ],
  'not a public internet name': [
    { url: 'https://co.uk/', allowed: true, codes: ['no-registrable-domain'] },
    { url: 'https://intranet/', allowed: true, codes: ['no-registrable-domain'] },
    { url: 'https://router.local/', allowed: true, codes: ['unknown-suffix'] },
    { url: 'https://payroll.corp/', allowed: true, codes: ['unknown-suffix'] },
  ],
  'unparsable and oversized': [
    { url: '', allowed: false, codes: ['unparsable'] },
    { url: 'not a url', allowed: false, codes: ['unparsable'] },
    { url: 'https://', allowed: false, codes: ['unparsable'] },
    { url: 'https://exa mple.com/', allowed: false, codes: ['unparsable'] },
    { url: '//example.com/', allowed: false, codes: ['unparsable'] },
    { url: 'https://999.1.1.1/', allowed: false, codes: ['unparsable'] },
    { url: 'https://xn--zz.com/', allowed: false, codes: ['unparsable'] }, // invalid punycode
    { url: `https://example.com/?q=${'a'.repeat(3000)}`, allowed: true, codes: ['long-url'] },
  ],
};

const all = Object.values(cases).flat();

describe('inspectUrl on a hostile corpus', () => {
  it('has at least 60 cases', () => {
    expect(all.length).toBeGreaterThanOrEqual(60);
  });

  for (const [group, entries] of Object.entries(cases)) {
    describe(group, () => {
      it.each(entries.map((entry) => [JSON.stringify(entry.url).slice(0, 80), entry] as const))(
        '%s',
        (_, { url, allowed, codes, registrable }) => {
          const inspection = inspectUrl(url);
          expect(inspection.warnings.map((warning) => warning.code)).toEqual(codes);
          expect(inspection.allowed).toBe(allowed);
          if (registrable !== undefined) expect(inspection.registrableDomain).toBe(registrable);
        },
      );
    });
  }
});
