import { LONG_URL_LENGTH, type UrlWarning } from './types.js';

/**
 * Characters that show nothing yet change what a URL is or how it reads: default-ignorable and
 * format characters (zero-width spaces and joiners, soft hyphens, text-direction controls, Hangul
 * fillers) and control characters, including the tabs and line breaks the URL parser silently drops.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}]/gu;

/** The URL text as the URL parser reads it: leading and trailing spaces and control characters removed. */
export function trimUrlText(url: string): string {
  let start = 0;
  let end = url.length;
  while (start < end && url.charCodeAt(start) <= 0x20) start++;
  while (end > start && url.charCodeAt(end - 1) <= 0x20) end--;
  return url.slice(start, end);
}

/** An `invisible-characters` warning when the URL text hides characters (the outer ones the parser trims do not count). */
export function checkInvisibleCharacters(url: string): UrlWarning | null {
  const count = trimUrlText(url).match(INVISIBLE)?.length ?? 0;
  if (count === 0) return null;
  return {
    code: 'invisible-characters',
    message:
      `The address contains ${count === 1 ? 'a hidden character' : `${count} hidden characters`} ` +
      '(such as zero-width spaces or text-direction controls), so what you see is not exactly what opens.',
  };
}

/** A `long-url` warning when the normalized URL is too long for a person to read before opening it. */
export function checkLength(href: string): UrlWarning | null {
  if (href.length <= LONG_URL_LENGTH) return null;
  return {
    code: 'long-url',
    message: `The address is ${href.length} characters long, too long to check by eye; look closely at the site name.`,
  };
}
