// Small helpers for writing warning messages in plain English.

/** `['a']` → `'a'`; `['a', 'b', 'c']` → `'a, b and c'`; past `max` items the rest are counted. */
export function listWords(words: readonly string[], max = 8): string {
  if (words.length <= 1) return words[0] ?? '';
  if (words.length > max) return `${words.slice(0, max).join(', ')} and ${words.length - max} more`;
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * The text cut to about `max` characters by an ellipsis in the middle, so a hostile URL cannot flood
 * a message while both ends (where a host's real name sits) stay visible.
 */
export function shorten(text: string, max = 100): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const half = Math.floor((max - 1) / 2);
  return `${chars.slice(0, half).join('')}…${chars.slice(-half).join('')}`;
}

/** Findings joined by semicolons; past `max` of them the rest are counted. */
export function listFindings(findings: readonly string[], max = 3): string {
  const more = findings.length > max ? `; and ${findings.length - max} more` : '';
  return findings.slice(0, max).join('; ') + more;
}

/** Text from the URL, shortened and in single quotes, ready to put in a message. */
export function quote(text: string): string {
  return `'${shorten(text)}'`;
}
