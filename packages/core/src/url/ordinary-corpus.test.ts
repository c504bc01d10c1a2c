import { describe, expect, it } from 'vitest';
import { inspectUrl } from './inspect.js';

const googleAuthorize =
  'https://accounts.google.com/o/oauth2/v2/auth?client_id=1234567890-abcdefghijklmnop.apps.googleusercontent.com' +
  '&redirect_uri=https%3A%2F%2Fapp.example.com%2Foauth%2Fcallback&response_type=code&scope=openid%20email%20profile' +
  '&state=af0ifjsldkj&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256' +
  '&access_type=offline&prompt=consent&include_granted_scopes=true&login_hint=someone%40example.com';

// Ordinary addresses a server may hand out: each must be allowed and carry no warning at all.
const ordinary: readonly string[] = [
  'https://example.com',
  'https://www.example.com/',
  'https://example.com/path/to/page?x=1&y=2#section',
  'https://EXAMPLE.com/Path',
  'https://example.com:443/secure',
  'https://example.com/search?q=%E2%9C%93',
  'https://example.com/\u043f\u0440\u0438\u0432\u0435\u0442', // a Unicode path, not host
  'https://example.com/login?next=/account&redirect=https://other.example.org/',
  'https://docs.aws.amazon.com/AmazonS3/latest/userguide/Welcome.html',
  'https://api.eu.example.com/v1/items',
  'https://mail.us-east.example.com/',
  'https://api.my-site.com/',
  'https://my-site.com/',
  'https://a.b.c.d.example.com/', // four labels in front: the most that does not warn
  googleAuthorize,
  'https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=00000000-0000-0000-0000-000000000000&response_type=code',
  'https://github.com/login/oauth/authorize?client_id=Iv1.abc123&scope=repo%20read%3Auser',
  'https://alice.github.io/project/',
  'https://www.bbc.co.uk/news',
  'https://www.amazon.co.uk/gp/cart/view.html',
  'https://www.example.com.au/shop',
  'https://shop.example.com.br/',
  'https://example.co.jp/',
  'https://my-bucket.s3.us-east-1.amazonaws.com/key.txt',
  'https://s3.amazonaws.com/my-bucket/key.txt',
  'https://en.wikipedia.org/wiki/Punycode',
  'https://docs.python.org/3/library/urllib.parse.html',
  'https://stripe.com/docs/payments',
  'https://checkout.stripe.com/c/pay/cs_test_a1b2c3#fidkdWxOYHwnPyd1blpxYHZxWjA0',
  'https://app.slack.com/client/T0000/C0000',
  'https://mail.google.com/mail/u/0/#inbox',
  'https://www.gov.uk/apply-renew-passport',
  'https://portal.azure.com/#home',
  'https://console.cloud.google.com/home/dashboard?project=demo-123',
  'https://myaccount.example.org/settings/security',
  'https://auth.example.dev/connect?flow=3f2a9c&user=8812',
  'https://sso.company.example.com/saml/login',
  'https://status.example.io/',
  'https://web.archive.org/web/2020/https://example.com/',
  'https://zoom.us/j/123456789?pwd=abc',
  'https://t.co/AbCdEf',
  'https://user-content.example.net/files/a-b-c.pdf',
  'https://localhost:8443/', // this computer: a port needs no warning
  'http://localhost:5173/',
  'http://localhost/',
  'http://127.0.0.1:8080/callback',
  'http://[::1]:3000/',
  'http://app.localhost:3000/',
];

describe('inspectUrl on ordinary URLs', () => {
  it('has at least 40 cases', () => {
    expect(ordinary.length).toBeGreaterThanOrEqual(40);
  });

  it.each(ordinary.map((url) => [url.slice(0, 80), url] as const))('%s', (_, url) => {
    const inspection = inspectUrl(url);
    expect(inspection.warnings).toEqual([]);
    expect(inspection.allowed).toBe(true);
  });
});
