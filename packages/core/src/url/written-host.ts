import { trimUrlText } from './text.js';

/**
 * The host exactly as it is written in a URL's text, before the URL parser normalizes it
 * (`'0x7f.1'` where the parser says `'127.0.0.1'`). Follows the WHATWG parser's reading of special
 * (http/https) URLs: leading and trailing spaces and control characters are dropped, tabs and line
 * breaks are ignored, backslashes count as slashes, the last '@' ends the user info.
 */
export function writtenHostOf(url: string): string {
  const text = trimUrlText(url).replace(/[\t\n\r]/g, '');
  const afterScheme = text.replace(/^[a-z][a-z0-9+.-]*:[/\\]*/i, '');
  const authority = afterScheme.split(/[/\\?#]/, 1)[0] ?? '';
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostAndPort.startsWith('[')) {
    const end = hostAndPort.indexOf(']');
    return end === -1 ? hostAndPort : hostAndPort.slice(0, end + 1);
  }
  return hostAndPort.split(':', 1)[0] ?? '';
}
