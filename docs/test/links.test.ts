// Every internal link of the built site resolves: to a page (or file) that was built, and when it
// names a #fragment, to an element of that page with that id.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

const siteDir = inject('siteDir');

/** Every file of the built site, `/`-separated and relative to it. */
function siteFiles(dir = siteDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? siteFiles(join(dir, entry.name))
      : [relative(siteDir, join(dir, entry.name)).split(sep).join('/')],
  );
}

const files = new Set(siteFiles());
const pages = [...files].filter((file) => file.endsWith('.html'));
const idsOf = new Map<string, Set<string>>();

function ids(page: string): Set<string> {
  let found = idsOf.get(page);
  if (!found) {
    const html = readFileSync(join(siteDir, page), 'utf8');
    found = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => decodeEntities(match[1]!)));
    idsOf.set(page, found);
  }
  return found;
}

function decodeEntities(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** The built file a site path is served from, or undefined. */
function fileFor(path: string): string | undefined {
  const bare = decodeURIComponent(path).replace(/^\//, '');
  for (const candidate of [bare, `${bare}index.html`, `${bare}.html`, `${bare}/index.html`])
    if (files.has(candidate)) return candidate;
  return undefined;
}

/** Every internal link (href or src) of a page that does not resolve. */
function brokenLinks(page: string): string[] {
  const html = readFileSync(join(siteDir, page), 'utf8');
  const broken: string[] = [];
  for (const [, attribute, raw] of html.matchAll(/<(?:a|img|link|script)\b[^>]*?\s(href|src)="([^"]*)"/g)) {
    const link = decodeEntities(raw!);
    if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(link)) continue; // another site, mailto:, data:, ...
    const url = new URL(link, `http://site/${page}`);
    const target = url.pathname === `/${page}` || link.startsWith('#') ? page : fileFor(url.pathname);
    const fragment = decodeURIComponent(url.hash.slice(1));
    if (!target) broken.push(`${attribute}="${link}": nothing is built at ${url.pathname}`);
    else if (fragment && target.endsWith('.html') && !ids(target).has(fragment))
      broken.push(`${attribute}="${link}": ${target} has no element with id "${fragment}"`);
  }
  return broken;
}

describe('internal links', () => {
  it('the site has its pages', () => {
    for (const page of [
      'index.html',
      'guide/index.html',
      'gateway.html',
      'security.html',
      'performance/index.html',
      'api/index.html',
    ])
      expect(files.has(page), page).toBe(true);
    expect(pages.filter((page) => page.startsWith('packages/')).length).toBeGreaterThanOrEqual(5);
  });

  it.each(pages)('%s: every internal link resolves', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });
});
