import { scriptOf } from './scripts.js';
import type { UrlWarning } from './types.js';
import { listFindings, listWords, quote } from './words.js';

/**
 * Characters that pass as an ASCII letter or separator, mapped to what a person reads.
 *
 * How the set was chosen: each entry survives the URL parser's IDNA mapping (so it can reach a real
 * host; characters the parser maps away, such as full-width letters or 'ſ', or rejects, never need
 * listing), and renders nearly identical to the ASCII character in common sans-serif fonts. They were
 * picked by hand from the Cyrillic, Greek and Armenian alphabets, Latin letter variants (IPA and small
 * capitals), and symbols read as '/', '-' or ':'. It is deliberately small, to keep false alarms low,
 * and written from the glyphs, not copied from Unicode's confusables data.
 */
// biome-ignore format: the table reads best one script to a line
const LOOKS_LIKE: ReadonlyMap<string, string> = new Map([
  // Cyrillic
  ['а', 'a'], ['с', 'c'], ['ԁ', 'd'], ['е', 'e'], ['һ', 'h'], ['і', 'i'], ['ј', 'j'], ['ӏ', 'l'],
  ['о', 'o'], ['р', 'p'], ['ԛ', 'q'], ['ѕ', 's'], ['ѵ', 'v'], ['ԝ', 'w'], ['х', 'x'], ['у', 'y'],
  ['ү', 'y'],
  // Greek
  ['α', 'a'], ['ϲ', 'c'], ['ι', 'i'], ['ϳ', 'j'], ['κ', 'k'], ['ο', 'o'], ['ρ', 'p'], ['υ', 'u'],
  ['ν', 'v'], ['χ', 'x'], ['γ', 'y'],
  // Armenian
  ['ց', 'g'], ['հ', 'h'], ['ո', 'n'], ['օ', 'o'], ['զ', 'q'], ['ս', 'u'],
  // Latin letters that are not the ASCII ones
  ['ɑ', 'a'], ['ɡ', 'g'], ['ı', 'i'], ['ɩ', 'i'], ['ȷ', 'j'], ['ǀ', 'l'], ['ᴠ', 'v'], ['ᴡ', 'w'],
  // Separators
  ['∕', '/'], ['⁄', '/'], ['⧸', '/'], ['‐', '-'], ['−', '-'], ['–', '-'], ['։', ':'], ['∶', ':'],
]);

const ASCII_HOST_CHAR = /^[a-z0-9-]$/;

/** What a confusable character is, as a person would say it. */
function kindOf(char: string): string {
  const script = scriptOf(char);
  if (script === null) return 'symbol';
  return script === 'Latin' ? 'different Latin letter' : `${script} letter`;
}

/** Explains, for one label, which characters are look-alikes: "character 1 is a Cyrillic letter ...". */
function describeLabel(label: string): string {
  const byKind = new Map<string, { positions: number[]; looks: Set<string> }>();
  Array.from(label).forEach((char, index) => {
    const looks = LOOKS_LIKE.get(char);
    if (looks === undefined) return;
    const kind = kindOf(char);
    const group = byKind.get(kind) ?? { positions: [], looks: new Set<string>() };
    group.positions.push(index + 1);
    group.looks.add(looks);
    byKind.set(kind, group);
  });
  const parts = [...byKind].map(([kind, { positions, looks }]) => {
    const looksText = listWords([...looks].map((c) => `'${c}'`));
    return positions.length === 1
      ? `character ${positions[0]} is a ${kind} that looks like ${looksText}`
      : `characters ${listWords(positions.map(String))} are ${kind}s that look like ${looksText}`;
  });
  return `in ${quote(label)}, ${parts.join('; ')}`;
}

/** A label reads as another ASCII name when it has look-alikes and nothing but ASCII besides. */
function readsAsAscii(label: string): boolean {
  let hasLookalike = false;
  for (const char of label) {
    if (LOOKS_LIKE.has(char)) hasLookalike = true;
    else if (!ASCII_HOST_CHAR.test(char)) return false;
  }
  return hasLookalike;
}

/** The host as a person may read it: every look-alike replaced by the ASCII character it imitates. */
export function skeletonOf(unicodeHost: string): string {
  return Array.from(unicodeHost, (char) => LOOKS_LIKE.get(char) ?? char).join('');
}

/** A `confusable` warning when some label of the Unicode host passes for a different ASCII name. */
export function checkConfusables(unicodeHost: string): UrlWarning | null {
  const labels = unicodeHost.split('.').filter(readsAsAscii);
  if (labels.length === 0) return null;
  return {
    code: 'confusable',
    message:
      `The address uses look-alike characters: ${quote(unicodeHost)} is not ${quote(skeletonOf(unicodeHost))} ` +
      `(${listFindings(labels.map(describeLabel))}).`,
  };
}
