import { describe, expect, it } from 'vitest';
import { importedPackages } from './imports.js';

describe('importedPackages', () => {
  it('finds static imports, re-exports and literal dynamic imports, as package names', () => {
    const js = [
      "import { a } from '@scope/pkg/sub';",
      "import b, { c } from 'plain';",
      "import 'side-effect/x.js';",
      "export { d } from 're-exported';",
      "export * from './local.js';",
      "const open = await import('open');",
      "import { readFileSync } from 'node:fs';",
      "import path from 'path';",
    ].join('\n');
    expect(importedPackages(js)).toEqual(['@scope/pkg', 'open', 'plain', 're-exported', 'side-effect']);
  });

  it('reads an import split over several lines', () => {
    expect(importedPackages("import {\n  one,\n  two,\n} from 'multi';\n")).toEqual(['multi']);
  });
});
