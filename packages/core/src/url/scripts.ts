// Writing systems of the characters in a host label, found with Unicode property escapes.
import type { UrlWarning } from './types.js';
import { listFindings, listWords, quote } from './words.js';

/** The scripts probed by name. A letter in any other script is reported as 'another script'. */
const NAMED_SCRIPTS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Bengali', /\p{Script=Bengali}/u],
  ['Tamil', /\p{Script=Tamil}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Bopomofo', /\p{Script=Bopomofo}/u],
  ['Hangul', /\p{Script=Hangul}/u],
];

const SHARED = /[\p{Script=Common}\p{Script=Inherited}]/u;

/** Script combinations that are normal inside one label (UTS #39, "highly restrictive" level). */
const ALLOWED_MIXES: readonly ReadonlySet<string>[] = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** The script of one character, or null for characters shared by all scripts (digits, '-', marks). */
export function scriptOf(char: string): string | null {
  if (SHARED.test(char)) return null;
  for (const [name, pattern] of NAMED_SCRIPTS) {
    if (pattern.test(char)) return name;
  }
  return 'another script';
}

/** The distinct scripts used in a label, in order of first appearance. */
export function scriptsIn(label: string): string[] {
  const found = new Set<string>();
  for (const char of label) {
    const script = scriptOf(char);
    if (script !== null) found.add(script);
  }
  return [...found];
}

/** The scripts of a label when they form a suspicious mix, or null when the label is fine. */
export function suspiciousScriptMix(label: string): string[] | null {
  const scripts = scriptsIn(label);
  if (scripts.length < 2) return null;
  const normal = ALLOWED_MIXES.some((mix) => scripts.every((script) => mix.has(script)));
  return normal ? null : scripts;
}

/** A `mixed-script` warning naming each label of the Unicode host that mixes writing systems. */
export function checkMixedScript(unicodeHost: string): UrlWarning | null {
  const findings = unicodeHost.split('.').flatMap((label) => {
    const scripts = suspiciousScriptMix(label);
    return scripts ? [`${quote(label)} mixes ${listWords(scripts)} letters`] : [];
  });
  if (findings.length === 0) return null;
  return {
    code: 'mixed-script',
    message: `The address mixes alphabets within one name (${listFindings(findings)}), a common trick to imitate a familiar name.`,
  };
}
