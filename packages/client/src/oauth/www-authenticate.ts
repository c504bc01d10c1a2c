/** One challenge of a `WWW-Authenticate` header: its scheme (lower case) and its parameters. */
export interface AuthChallenge {
  readonly scheme: string;
  readonly params: Readonly<Record<string, string>>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
/** A header longer than this is not read (it comes from the network). */
const MAX_HEADER = 8192;

/**
 * The challenges of a `WWW-Authenticate` header (RFC 9110 §11.6.1), e.g. both of
 * `Bearer resource_metadata="…", DPoP algs="ES256"`. Parameter names are lower-cased; a
 * token68 is ignored. A header that does not parse yields what was read before the fault.
 */
export function parseChallenges(header: string | null): AuthChallenge[] {
  if (header === null || header.length > MAX_HEADER) return [];
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  let rest = header;
  const skip = (pattern: RegExp) => {
    rest = rest.replace(pattern, '');
  };
  for (;;) {
    skip(/^[\s,]+/);
    const scheme = TOKEN.exec(rest)?.[0];
    if (scheme === undefined) return challenges;
    rest = rest.slice(scheme.length);
    const challenge = { scheme: scheme.toLowerCase(), params: {} as Record<string, string> };
    challenges.push(challenge);
    // Parameters until the next scheme: `name = value` pairs separated by commas.
    for (;;) {
      skip(/^[\s,]+/);
      const name = TOKEN.exec(rest)?.[0];
      if (name === undefined) return challenges;
      const after = rest.slice(name.length);
      const equals = /^\s*=\s*/.exec(after);
      // A token not followed by `=` starts the next challenge; `token68=` padding is skipped.
      if (equals === null) break;
      rest = after.slice(equals[0].length);
      if (rest.startsWith('"')) {
        const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        if (quoted === null) return challenges;
        challenge.params[name.toLowerCase()] = quoted[1]!.replace(/\\(.)/g, '$1');
        rest = rest.slice(quoted[0].length);
      } else {
        const value = TOKEN.exec(rest)?.[0] ?? '';
        challenge.params[name.toLowerCase()] = value;
        rest = rest.slice(value.length);
      }
    }
  }
}
