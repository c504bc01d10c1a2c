// The text of a page that shows a repository file (its code) or folder (what is in it).

import { readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { folderListing, sourcePage } from './site-map.js';

const LANGUAGES: Readonly<Record<string, string>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.json': 'json',
  '.sh': 'sh',
  '.md': 'md',
  '.yml': 'yaml',
  '.yaml': 'yaml',
  '.py': 'py',
  '.css': 'css',
  '.html': 'html',
};

/** Markdown for the page of repository path `path` (a file or a folder). */
export function sourcePageMarkdown(root: string, path: string): string {
  const title = `# \`${path}\`\n\n`;
  if (statSync(join(root, path)).isDirectory()) {
    const entries = folderListing(root, path).map((entry) => {
      const name = entry.path.slice(path.length + 1);
      return entry.folder ? `- \`${name}/\`` : `- [\`${name}\`](/${sourcePage(entry.path)})`;
    });
    return `${title}The folder \`${path}/\` of the repository holds:\n\n${entries.join('\n')}\n`;
  }
  const text = readFileSync(join(root, path), 'utf8');
  const longestRun = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  const language = LANGUAGES[extname(path)] ?? 'text';
  return `${title}The file \`${path}\` of the repository:\n\n${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}\n`;
}
