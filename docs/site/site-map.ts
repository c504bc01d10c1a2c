// Which file of the repository is which page of the site. The site is built from the files a reader
// of the repository already reads (the READMEs, the guide, the threat model), where they are: VitePress
// reads the whole repository (srcDir is its root) and this map moves each file to its place on the site.
// A link between two of them, written for GitHub, is turned into a link between their pages; a link to
// any other file of the repository goes to a page that shows that file (/source/...).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';

/** The folder TypeDoc writes the API reference to, relative to the repository root. */
export const API_FOLDER = 'docs/api';
/** Where the pages showing repository files come from: one dynamic VitePress route. */
export const SOURCE_ROUTE = 'docs/source/[file].md';

/** A page of the site and the repository file it is made from (both relative to the root, `/`-separated). */
export interface SitePage {
  readonly source: string;
  /** Its path on the site, as a VitePress page file: `guide/index.md` is served at `/guide/`. */
  readonly page: string;
}

/** Files that are pages wherever a package or an example of that name exists. */
const FOLDERS_WITH_READMES = ['packages', 'examples'];

/** The hand-placed pages; every package and example README is added to them. */
const FIXED_PAGES: readonly SitePage[] = [
  { source: 'docs/index.md', page: 'index.md' },
  { source: 'README.md', page: 'overview.md' },
  { source: 'docs/guide/README.md', page: 'guide/index.md' },
  { source: 'docs/gateway.md', page: 'gateway.md' },
  { source: 'docs/security.md', page: 'security.md' },
  { source: 'docs/hosts.md', page: 'hosts.md' },
  { source: 'docs/performance.md', page: 'performance/index.md' },
  { source: 'bench/README.md', page: 'performance/benchmarks.md' },
  { source: 'docs/reliability.md', page: 'reliability/index.md' },
  { source: 'fleet/README.md', page: 'reliability/fleet.md' },
  { source: 'interop/README.md', page: 'interop/index.md' },
  { source: 'consumer/README.md', page: 'consumer/index.md' },
  { source: 'ARCHITECTURE.md', page: 'architecture.md' },
  { source: 'CONTRIBUTING.md', page: 'contributing.md' },
  { source: 'SECURITY.md', page: 'security-reporting.md' },
];

const toPosix = (path: string) => path.split(sep).join('/');

/** Every page of the site made from a repository file (the API reference and source pages aside). */
export function sitePages(root: string): SitePage[] {
  const pages = [...FIXED_PAGES];
  for (const folder of FOLDERS_WITH_READMES) {
    for (const name of readdirSync(join(root, folder)).sort()) {
      const source = `${folder}/${name}/README.md`;
      if (existsSync(join(root, source))) pages.push({ source, page: `${folder}/${name}/index.md` });
    }
  }
  return pages.filter((page) => existsSync(join(root, page.source)));
}

/**
 * Where a file VitePress found in srcDir (the repository root) goes on the site, or undefined when it
 * is not a page at all (every other markdown file of the repository).
 */
export function pageOf(root: string): (source: string) => string | undefined {
  const known = placers.get(root);
  if (known) return known;
  const byFile = new Map(sitePages(root).map((page) => [page.source, page.page]));
  const place = (source: string) => {
    const fixed = byFile.get(source);
    if (fixed) return fixed;
    if (source.startsWith(`${API_FOLDER}/`)) return `api/${source.slice(API_FOLDER.length + 1)}`;
    if (source.startsWith('docs/source/')) return source.slice('docs/'.length);
    return undefined;
  };
  placers.set(root, place);
  return place;
}

const placers = new Map<string, (source: string) => string | undefined>();

/** What a relative link in a page points at. */
export type LinkTarget =
  | { readonly kind: 'page'; readonly page: string }
  | { readonly kind: 'source'; readonly path: string }
  | { readonly kind: 'missing'; readonly path: string };

/**
 * Resolves `href` (a relative link, its `#fragment` and `?query` removed) written in a file of the
 * folder `fromFolder` (absolute) to a page, a repository file or folder shown on a source page, or
 * nothing.
 */
export function resolveRepoLink(root: string, fromFolder: string, href: string): LinkTarget {
  const path = toPosix(relative(root, resolve(fromFolder, decodeURI(href)))) || '.';
  const place = pageOf(root);
  const page = place(path) ?? place(posix.join(path, 'README.md'));
  if (page) return { kind: 'page', page };
  if (!path.startsWith('..') && path !== '.' && existsSync(join(root, path)) && !hidden(path))
    return { kind: 'source', path };
  return { kind: 'missing', path };
}

/** Folders and files a source page never shows: build output, dependencies, dot-files. */
function hidden(path: string): boolean {
  return path.split('/').some((part) => part.startsWith('.') || part === 'node_modules' || part === 'dist');
}

/**
 * The `file` parameter of the source page that shows the repository path `path`. A markdown file's
 * own `.md` gets a suffix: VitePress would otherwise read it as the page's extension, and a link to
 * `x.md.md` would be checked as a link to `x`, which no page is.
 */
export const sourceParam = (path: string) => (path.endsWith('.md') ? `${path}.source` : path);

/** The site URL of a source page for the repository path `path`. */
export const sourcePage = (path: string) => `source/${sourceParam(path)}.md`;

/**
 * Every repository file or folder a site page links to that is not a page itself, and for a linked
 * folder, the files directly in it: each gets a source page.
 */
export function linkedSources(root: string): string[] {
  const found = new Set<string>();
  for (const { source } of sitePages(root)) {
    const folder = dirname(join(root, source));
    for (const href of relativeLinks(readFileSync(join(root, source), 'utf8'))) {
      const target = resolveRepoLink(root, folder, href);
      if (target.kind !== 'source') continue;
      found.add(target.path);
      if (statSync(join(root, target.path)).isDirectory())
        for (const child of folderListing(root, target.path)) if (!child.folder) found.add(child.path);
    }
  }
  return [...found].sort();
}

/** The entries of a repository folder a source page lists, folders first. */
export function folderListing(root: string, path: string): { path: string; folder: boolean }[] {
  return readdirSync(join(root, path), { withFileTypes: true })
    .map((entry) => ({ path: `${path}/${entry.name}`, folder: entry.isDirectory() }))
    .filter((entry) => !hidden(entry.path) && !entry.path.endsWith('.tsbuildinfo'))
    .sort((a, b) => Number(b.folder) - Number(a.folder) || a.path.localeCompare(b.path));
}

/**
 * The relative link targets of a markdown text (inline links, not images), without their `#fragment`
 * or `?query`; code spans and fenced blocks are skipped.
 */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '');
  const links: string[] = [];
  for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const href = match[1]!.replace(/[?#].*$/, '');
    if (href && !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('/')) links.push(href);
  }
  return links;
}
