// Small helpers for writing warning messages in plain English.

/** `['a']` → `'a'`; `['a', 'b', 'c']` → `'a, b and c'`. */
export function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** The text cut to `max` characters with an ellipsis, so a hostile URL cannot flood a message. */
export function shorten(text: string, max = 60): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
