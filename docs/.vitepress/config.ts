// The Parley site (VitePress). `npm run docs` builds it to docs/.vitepress/dist, `npm run docs:dev`
// serves it. Its pages are the repository's own files, read where they are (see docs/site/site-map.ts);
// the API reference is generated from the packages' TSDoc before each build.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { slug } from 'github-slugger';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { type DefaultTheme, defineConfig, type UserConfig } from 'vitepress';
import { apiPage, writeApiReference } from '../site/api-reference.js';
import { exercisePlugin } from '../site/exercises.js';
import { writeHostMatrix } from '../site/host-matrix.js';
import { entryPoints } from '../site/public-exports.js';
import { repoLinks } from '../site/repo-links.js';
import { sandboxRuntime } from '../site/sandbox/runtime-plugin.js';
import { API_FOLDER, pageOf, sitePages } from '../site/site-map.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The first `# heading` of a markdown file, without code marks. */
function titleOf(file: string): string {
  const heading = /^# (.+)$/m.exec(readFileSync(join(root, file), 'utf8'))?.[1] ?? file;
  return heading.replaceAll('`', '');
}

/** Every markdown file of the repository that is not a page, so VitePress leaves it out. */
function notPages(place: (source: string) => string | undefined, folder = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'dist') continue;
    if (entry.isDirectory()) found.push(...notPages(place, path));
    else if (entry.name.endsWith('.md') && !place(path)) found.push(path);
  }
  return found;
}

function sidebar(): DefaultTheme.SidebarItem[] {
  const pages = sitePages(root);
  const link = (source: string) =>
    `/${pageOf(root)(source)!
      .replace(/(^|\/)index\.md$/, '$1')
      .replace(/\.md$/, '')}`;
  const guide = readFileSync(join(root, 'docs/guide/README.md'), 'utf8');
  const steps = [...guide.matchAll(/^## (\d+\. .+)$/gm)].map(([, text = '']) => ({
    text: text.replaceAll('`', ''),
    link: `/guide/#${slug(text)}`,
  }));
  const under = (folder: string) => pages.filter((page) => page.source.startsWith(`${folder}/`));
  return [
    {
      text: 'Learn',
      items: [
        { text: 'Overview', link: '/overview' },
        { text: 'Guide: elicitation step by step', link: '/guide/', items: steps },
        { text: 'The gateway: any host, any server', link: '/gateway' },
        { text: 'Host matrix', link: '/hosts' },
        { text: 'Architecture', link: '/architecture' },
        { text: 'Contributing', link: '/contributing' },
      ],
    },
    {
      text: 'Packages',
      items: under('packages').map((page) => ({
        text: titleOf(page.source).split(':')[0]!,
        link: link(page.source),
      })),
    },
    {
      text: 'API reference',
      collapsed: false,
      items: [
        { text: 'Every package', link: '/api/' },
        ...entryPoints(root).map((entry) => ({ text: entry.specifier, link: apiPage(entry) })),
      ],
    },
    {
      text: 'Trust',
      items: [
        { text: 'Threat model', link: '/security' },
        { text: 'Performance', link: '/performance/' },
        { text: 'Benchmarks', link: '/performance/benchmarks' },
        { text: 'Reliability', link: '/reliability/' },
        { text: 'The fleet test', link: '/reliability/fleet' },
        { text: 'Interop', link: '/interop/' },
        { text: 'The consumer test', link: '/consumer/' },
        { text: 'Reporting a vulnerability', link: '/security-reporting' },
      ],
    },
    {
      text: 'Examples',
      items: under('examples').map((page) => ({ text: titleOf(page.source), link: link(page.source) })),
    },
  ];
}

// A function, so the reference is written before VitePress reads the pages (Vite awaits it).
export default async (): Promise<UserConfig<DefaultTheme.Config>> => {
  // DOCS_API=reuse keeps the reference from the last build (quicker while editing other pages).
  if (process.env.DOCS_API !== 'reuse' || !existsSync(join(root, API_FOLDER))) await writeApiReference(root);
  writeHostMatrix(root);
  const place = pageOf(root);
  return defineConfig({
    title: 'Parley',
    description: 'MCP elicitation done completely, in TypeScript.',
    srcDir: '..',
    srcExclude: ['**/node_modules/**', '**/dist/**', '**/.*/**', ...notPages(place)],
    rewrites: (source: string) => place(source) ?? source,
    additionalConfig: {},
    lastUpdated: false,
    markdown: {
      anchor: { slugify: slug },
      config(md) {
        repoLinks(md, root);
        exercisePlugin(md);
      },
    },
    themeConfig: {
      nav: [
        { text: 'Guide', link: '/guide/' },
        { text: 'Packages', link: '/packages/server/' },
        { text: 'Gateway', link: '/gateway' },
        { text: 'API', link: '/api/' },
        { text: 'Security', link: '/security' },
        { text: 'Performance', link: '/performance/' },
        { text: 'Reliability', link: '/reliability/' },
      ],
      sidebar: sidebar(),
      outline: [2, 3],
      search: { provider: 'local' },
    },
    vite: {
      resolve: { conditions: ['@parley/source', ...defaultClientConditions] },
      ssr: {
        resolve: {
          conditions: ['@parley/source', ...defaultServerConditions],
          externalConditions: ['@parley/source'],
        },
      },
      worker: { format: 'es' },
      // The big chunks are loaded only when needed: the local search index (about 1.8 MB, on the
      // first search), the largest API reference pages, the exercises' sandbox worker. Vite's
      // 500 kB warning about them reads like a failed build.
      build: { chunkSizeWarningLimit: 4096 },
      plugins: [sandboxRuntime()],
    },
  });
};
