/**
 * Why a person should be careful before opening a URL. Each code has one meaning:
 *
 * - `unparsable`: the text is not a URL a browser can load. `allowed` is false.
 * - `scheme-not-allowed`: the scheme is not `https:` (or `http:`), e.g. `javascript:`, `data:`, `file:`.
 *   `allowed` is false; host checks are skipped because the URL will never be opened.
 * - `insecure-http`: `http:` to a host other than this computer (loopback). `allowed` is false.
 * - `invisible-characters`: the text as sent contains characters a person cannot see (zero-width
 *   characters, text-direction controls, soft hyphens, tabs or line breaks), which hide or reorder
 *   parts of the address.
 * - `long-url`: the normalized address is longer than {@link LONG_URL_LENGTH} characters, too long to
 *   read in full before agreeing to open it.
 * - `userinfo`: a user name (and maybe a password) stands before `@` in front of the host, as in
 *   `https://example.com@evil.io`; it makes the address seem to lead somewhere it does not.
 * - `ip-literal`: the host is a numeric IP address (not this computer), so nothing names the owner.
 * - `obfuscated-ip`: an IPv4 address written in a form other than plain dotted decimal (a single
 *   decimal or hex number, octal parts, a shortened `127.1`, full-width digits, ...).
 * - `port`: an explicit, non-default port on a host other than this computer.
 * - `punycode`: the host has internationalized (IDN) labels; the message shows the Unicode form a
 *   person reads and the ASCII (`xn--`) form the browser resolves.
 * - `mixed-script`: one label mixes letters from different writing systems (e.g. Latin and Cyrillic),
 *   outside the Japanese, Chinese and Korean combinations that are normal (UTS #39 "highly restrictive").
 * - `confusable`: a label is made only of ASCII characters and characters that look like them, so it
 *   reads as a different ASCII name (`аpple.com` with a Cyrillic `а` reads as `apple.com`).
 * - `lookalike-domain`: the start of the host reads as another site's domain (`login.example.com.evil.io`,
 *   `paypal.com-secure.example.net`) while the real registrable domain is different.
 * - `deep-subdomain`: more than {@link DEEP_SUBDOMAIN_LABELS} labels stand before the registrable domain.
 * - `no-registrable-domain`: the host is not under any registrable domain of the public-suffix list
 *   (a bare suffix such as `co.uk`, a single word such as `intranet`, or a malformed name).
 * - `unknown-suffix`: the host ends in a suffix that is not on the public-suffix list (`.local`, `.corp`,
 *   `.test`), so it is not a public internet site and may be a device on a private network.
 */
export type UrlWarningCode =
  | 'unparsable'
  | 'scheme-not-allowed'
  | 'insecure-http'
  | 'invisible-characters'
  | 'long-url'
  | 'userinfo'
  | 'ip-literal'
  | 'obfuscated-ip'
  | 'port'
  | 'punycode'
  | 'mixed-script'
  | 'confusable'
  | 'lookalike-domain'
  | 'deep-subdomain'
  | 'no-registrable-domain'
  | 'unknown-suffix';

/** One thing to tell a person before they open a URL. `message` is plain text, never markup. */
export interface UrlWarning {
  readonly code: UrlWarningCode;
  readonly message: string;
}

/** What {@link inspectUrl} found out about a URL. */
export interface UrlInspection {
  /** False: a host must refuse to open the URL at all (bad scheme, `http:` off loopback, unparsable). */
  readonly allowed: boolean;
  /** The normalized URL as the browser will load it; `''` if unparsable. */
  readonly href: string;
  /** The scheme without the colon: `'https'`, `'http'`, `'javascript'`, ...; `''` if unparsable. */
  readonly scheme: string;
  /** The ASCII (punycode) host the browser resolves, without port; IPv6 keeps its brackets. */
  readonly host: string;
  /** The Unicode form of {@link host} that a person reads. */
  readonly unicodeHost: string;
  /**
   * The registrable domain (ASCII) from the public-suffix list, ICANN and private sections both:
   * `'alice.github.io'` belongs to Alice, not to GitHub. When the host is itself a private suffix
   * (`s3.amazonaws.com`) the ICANN-only answer is used (`'amazonaws.com'`). Null for IP addresses,
   * loopback names, bare suffixes and malformed hosts.
   */
  readonly registrableDomain: string | null;
  /** The explicit port; `''` when it is the scheme's default or absent. */
  readonly port: string;
  /** Everything a person should know before opening the URL, most severe first; empty when none. */
  readonly warnings: readonly UrlWarning[];
}

/** A normalized URL longer than this gets a `long-url` warning. */
export const LONG_URL_LENGTH = 2048;

/** More subdomain labels than this before the registrable domain get a `deep-subdomain` warning. */
export const DEEP_SUBDOMAIN_LABELS = 4;
