// The exercise sandbox's runtime: a dedicated worker (no DOM), started by the sandbox frame (of no
// origin, with no network: see frame.ts), that runs one exercise's code with @parley/core and its
// subpaths to import, posts the outcome, and is then ended with the frame. It is bundled into one
// script (runtime-plugin.ts), since the frame can load nothing from the site.

import * as core from '@parley/core';
import * as capabilities from '@parley/core/capabilities';
import * as form from '@parley/core/form';
import * as seal from '@parley/core/seal';
import * as url from '@parley/core/url';
import { type Outcome, runProgram } from './program.js';

const MODULES = {
  '@parley/core': core,
  '@parley/core/capabilities': capabilities,
  '@parley/core/form': form,
  '@parley/core/seal': seal,
  '@parley/core/url': url,
};

/** The worker's own global scope (this file is type-checked with the DOM's types, not a worker's). */
const scope = globalThis as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<{ code: string }>) => void): void;
  postMessage(outcome: Outcome): void;
};

scope.addEventListener('message', async (event) => {
  scope.postMessage(await runProgram(event.data.code, MODULES));
});
