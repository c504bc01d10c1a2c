import { ParleyError } from './errors.js';

/** Where a server is: a Streamable HTTP endpoint, or a command to spawn and talk to over stdio. */
export type Target =
  | { readonly kind: 'http'; readonly url: URL }
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] };

/**
 * Splits a command line into words the way a POSIX shell would, without running a shell: spaces
 * separate words, single quotes keep everything literally, double quotes keep spaces and honour
 * `\"`, `\\`, `\$` and `` \` ``, and a backslash outside quotes escapes the next character. No
 * variables, globs or pipes are expanded. Returns `undefined` for an unterminated quote.
 *
 * @example
 * splitCommandLine(`node "my server.js" --name 'A B'`); // ['node', 'my server.js', '--name', 'A B']
 */
export function splitCommandLine(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && '"\\$`'.includes(line[index + 1] ?? '')) word += line[++index];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      if (index + 1 < line.length) word += line[++index];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined) return undefined;
  if (inWord) words.push(word);
  return words;
}

/**
 * Reads a connect target: a URL (or a string starting with `http://` or `https://`) is a Streamable
 * HTTP endpoint; anything else is a command line (split like a shell would) or an argv array.
 *
 * @example
 * parseTarget('https://example.com/mcp'); // { kind: 'http', url: URL }
 * parseTarget('node "my server.js"'); // { kind: 'stdio', command: 'node', args: ['my server.js'] }
 */
export function parseTarget(target: string | readonly string[] | URL): Target {
  if (target instanceof URL) return httpTarget(target.href);
  if (typeof target === 'string' && /^https?:\/\//i.test(target.trim())) return httpTarget(target.trim());
  const argv = typeof target === 'string' ? splitCommandLine(target) : [...target];
  if (argv === undefined) {
    throw new ParleyError(
      'connection',
      `The command line ${JSON.stringify(target)} has an unterminated quote; close it`,
    );
  }
  const [command, ...args] = argv;
  if (command === undefined || command === '') {
    throw new ParleyError(
      'connection',
      'No server given; pass a command line such as "node server.js" or a URL such as http://localhost:3000/mcp',
    );
  }
  return { kind: 'stdio', command, args };
}

function httpTarget(href: string): Target {
  try {
    return { kind: 'http', url: new URL(href) };
  } catch {
    throw new ParleyError(
      'connection',
      `${JSON.stringify(href)} is not a valid URL; check the server address`,
    );
  }
}

/** A short name for the target, for messages and for servers that do not name themselves. */
export function describeTarget(target: Target): string {
  if (target.kind === 'http') return target.url.href;
  return [target.command, ...target.args].join(' ');
}
