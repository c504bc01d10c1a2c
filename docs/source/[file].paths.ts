// One page per repository file or folder that a page of the site links to (see docs/site/site-map.ts).

import { fileURLToPath } from 'node:url';
import { linkedSources, sourceParam } from '../site/site-map.js';
import { sourcePageMarkdown } from '../site/source-pages.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export default {
  paths: () =>
    linkedSources(root).map((path) => ({
      params: { file: sourceParam(path) },
      content: sourcePageMarkdown(root, path),
    })),
};
