// Version ranges for host profiles: what hosts report as clientInfo.version is anything from strict
// semver (`0.148.0-alpha.15`) to `1.4` or `dev`, so a small, forgiving comparison rather than semver's.

type Parsed = { readonly parts: readonly number[]; readonly pre: string | undefined };

function parse(version: string): Parsed | undefined {
  const match = /^v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(version.trim());
  if (!match) return undefined;
  return { parts: match[1]!.split('.').map(Number), pre: match[2] };
}

/** `<0`, `0`, `>0` as `a` is older than, the same as or newer than `b` (missing parts are 0). */
function compare(a: Parsed, b: Parsed): number {
  const length = Math.max(a.parts.length, b.parts.length);
  for (let index = 0; index < length; index++) {
    const difference = (a.parts[index] ?? 0) - (b.parts[index] ?? 0);
    if (difference !== 0) return difference;
  }
  // A pre-release comes before its release: 0.148.0-alpha.15 < 0.148.0.
  if (a.pre === b.pre) return 0;
  if (a.pre === undefined) return 1;
  if (b.pre === undefined) return -1;
  return a.pre < b.pre ? -1 : 1;
}

const COMPARATOR = /^(>=|<=|>|<|=)?\s*(\S+)$/;

function satisfies(version: Parsed, comparator: string): boolean {
  if (comparator === '*' || comparator === '') return true;
  const match = COMPARATOR.exec(comparator);
  const bound = match ? parse(match[2]!) : undefined;
  if (!match || !bound) throw new RangeError(rangeError(comparator));
  const order = compare(version, bound);
  switch (match[1]) {
    case '>=':
      return order >= 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '<':
      return order < 0;
    default:
      return order === 0;
  }
}

function rangeError(text: string): string {
  return `"${text}" is not a version range; write comparators like ">=1.0.25 <2" ("||" between alternatives, "*" for any)`;
}

/**
 * Checks a version range, throwing a `RangeError` that names the fix when it cannot be read.
 *
 * @example
 * checkVersionRange('>=1.0.25 <2 || 3.1.0'); // no error
 */
export function checkVersionRange(range: string): void {
  const zero = parse('0')!;
  for (const alternative of range.split('||'))
    for (const comparator of alternative.trim().split(/\s+/)) satisfies(zero, comparator);
}

/**
 * Whether a host's self-reported `version` lies in `range`: comparators (`>=`, `>`, `<`, `<=`, `=`
 * or none) joined by spaces (all must hold) and `||` (any alternative). `*` or an empty range is
 * every version, even one that is not a version number; a bounded range never holds for such a one.
 *
 * @example
 * versionInRange('0.148.0-alpha.15', '>=0.148.0'); // false: a pre-release comes before its release
 * versionInRange('1.4', '>=1.2 <2'); // true
 * versionInRange('dev', '*'); // true
 */
export function versionInRange(version: string | undefined, range: string | undefined): boolean {
  const text = (range ?? '*').trim();
  if (text === '' || text === '*') return true;
  const parsed = version === undefined ? undefined : parse(version);
  return text.split('||').some((alternative) => {
    const comparators = alternative.trim().split(/\s+/);
    if (parsed === undefined) {
      for (const comparator of comparators) satisfies(parse('0')!, comparator);
      return comparators.every((comparator) => comparator === '*');
    }
    return comparators.every((comparator) => satisfies(parsed, comparator));
  });
}
