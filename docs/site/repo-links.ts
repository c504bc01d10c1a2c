// A markdown-it plugin for the site: a relative link in a page, written for GitHub (to a file of the
// repository, relative to the file it is written in), becomes a link to that file's page, or to the
// page that shows the file. A link to nothing is left alone: VitePress fails the build on it.

import { dirname } from 'node:path';
import type { MarkdownRenderer } from 'vitepress';
import { resolveRepoLink, sourcePage } from './site-map.js';

type RenderRule = NonNullable<MarkdownRenderer['renderer']['rules']['link_open']>;

interface PageEnv {
  /** The file the page is made from (VitePress sets it; `path` is the page's place on the site). */
  readonly realPath?: string;
  readonly path?: string;
}

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
const INCLUDE_MARKER = /<!-- @include-(?:start: (.*?)|end) -->/g;

/** Installs the plugin; `root` is the repository root, VitePress's srcDir. */
export function repoLinks(md: MarkdownRenderer, root: string): void {
  // VitePress marks where an included file starts and ends; a link in it is relative to that file.
  const includeFolders = new WeakMap<object, string[]>();
  const renderBlock = md.renderer.rules.html_block!;
  md.renderer.rules.html_block = (tokens, index, options, env, self) => {
    for (const marker of tokens[index]!.content.matchAll(INCLUDE_MARKER)) {
      const stack = includeFolders.get(env) ?? [];
      includeFolders.set(env, stack);
      if (marker[1] === undefined) stack.pop();
      else stack.push(marker[1]);
    }
    return renderBlock(tokens, index, options, env, self);
  };

  const renderLink: RenderRule =
    md.renderer.rules.link_open ??
    ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
  md.renderer.rules.link_open = (tokens, index, options, env: PageEnv, self) => {
    const token = tokens[index]!;
    const href = token.attrGet('href');
    const file = env.realPath ?? env.path;
    if (href && file && !EXTERNAL.test(href) && !href.startsWith('/') && !href.startsWith('#')) {
      const [, path = '', rest = ''] = /^([^?#]*)(.*)$/.exec(href) ?? [];
      const folder = includeFolders.get(env)?.at(-1) ?? dirname(file);
      const target = resolveRepoLink(root, folder, path);
      if (target.kind === 'page') token.attrSet('href', `/${target.page}${rest}`);
      else if (target.kind === 'source') token.attrSet('href', `/${sourcePage(target.path)}${rest}`);
    }
    return renderLink(tokens, index, options, env, self);
  };
}
