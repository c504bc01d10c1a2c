/**
 * Measures the reusable form renderer the way issue 7 asks: its size minified + gzipped, and the
 * time Chromium takes to render a 20-field form. Uses esbuild, playwright-core and Debian's Chromium;
 * the bench and the lab's renderer tests use it.
 *
 * @example
 * import { measureRenderer } from '@parley/testing/measure-renderer';
 *
 * const { gzipBytes, renderMs } = await measureRenderer();
 * console.log(`${(gzipBytes / 1024).toFixed(1)} KB min+gz, ${renderMs.toFixed(2)} ms for 20 fields`);
 */
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { RequestedSchema } from '@parley/core/form';
import { CHROMIUM_ARGS } from './chromium.js';

/** The goals from issue 7. */
export const RENDERER_GOALS = { gzipBytes: 15 * 1024, renderMs: 16 } as const;

/** The global name the browser bundle puts `renderElicitation` under. */
export const BUNDLE_GLOBAL = 'parleyRenderer';

export interface RendererBundle {
  /** An IIFE that defines `window.parleyRenderer.renderElicitation`. */
  readonly code: string;
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
  /** The source files in the bundle, relative to the working directory. */
  readonly inputs: readonly string[];
}

/**
 * Bundles the built `@parley/renderer` (with the parts of `@parley/core/form` it uses) for a browser,
 * minified, as an IIFE that defines `window.parleyRenderer`.
 *
 * @example
 * const { code, gzipBytes } = await bundleRenderer();
 * await page.addScriptTag({ content: code }); // then window.parleyRenderer.renderElicitation(...)
 */
export async function bundleRenderer(): Promise<RendererBundle> {
  const { build } = await import('esbuild');
  const entry = createRequire(import.meta.url).resolve('@parley/renderer');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    globalName: BUNDLE_GLOBAL,
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  const bytes = Buffer.from(code);
  return {
    code,
    minifiedBytes: bytes.length,
    gzipBytes: gzipSync(bytes, { level: 9 }).length,
    inputs: Object.keys(result.metafile.inputs),
  };
}

/** A form of `count` fields cycling through every field kind of the subset. */
export function benchmarkSchema(count = 20): RequestedSchema {
  const kinds: RequestedSchema['properties'][string][] = [
    { type: 'string', title: 'Name', description: 'Your full name', minLength: 1, maxLength: 80 },
    { type: 'string', title: 'Email', format: 'email' },
    { type: 'string', title: 'Website', format: 'uri' },
    { type: 'string', title: 'Date', format: 'date' },
    { type: 'string', title: 'When', format: 'date-time' },
    { type: 'number', title: 'Weight', minimum: 0, maximum: 100 },
    { type: 'integer', title: 'Count', minimum: 1, maximum: 9, default: 1 },
    { type: 'boolean', title: 'Agree', default: false },
    { type: 'string', title: 'Size', enum: ['S', 'M', 'L'] },
    {
      type: 'string',
      title: 'Color',
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    },
    { type: 'array', title: 'Days', items: { type: 'string', enum: ['mon', 'tue', 'wed'] }, maxItems: 2 },
  ];
  const properties: RequestedSchema['properties'] = {};
  for (let index = 0; index < count; index += 1) properties[`field${index}`] = kinds[index % kinds.length]!;
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((_, index) => index % 2 === 0),
  };
}

export interface RendererMeasurement {
  readonly gzipBytes: number;
  readonly minifiedBytes: number;
  /** Median time of `runs` renders (DOM built and laid out), after one warm-up render. */
  readonly renderMs: number;
  /** The first, cold render. */
  readonly firstRenderMs: number;
  readonly fields: number;
}

export interface MeasureOptions {
  readonly fields?: number;
  readonly runs?: number;
  /** Default `/usr/bin/chromium`. */
  readonly executablePath?: string;
}

/**
 * Bundles the renderer, loads it into headless Chromium and times `renderElicitation` on a form of
 * `fields` fields (default 20), forcing layout each time.
 *
 * @example
 * const result = await measureRenderer({ fields: 20, runs: 25 });
 * result.gzipBytes <= RENDERER_GOALS.gzipBytes; // 15 KB
 * result.renderMs <= RENDERER_GOALS.renderMs; // 16 ms
 */
export async function measureRenderer(options: MeasureOptions = {}): Promise<RendererMeasurement> {
  const fields = options.fields ?? 20;
  const runs = options.runs ?? 25;
  const bundle = await bundleRenderer();
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: options.executablePath ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><html lang="en"><body><main id="root"></main></body></html>');
    await page.addScriptTag({ content: bundle.code });
    const times = await page.evaluate(
      ({ schema, runs, name }) => {
        type Render = (element: HTMLElement, request: unknown, options: { onAnswer(): void }) => unknown;
        const api = (window as unknown as Record<string, { renderElicitation: Render }>)[name]!;
        const root = document.getElementById('root')!;
        const once = () => {
          const box = document.createElement('div');
          root.replaceChildren(box);
          const start = performance.now();
          api.renderElicitation(box, { message: 'Benchmark', requestedSchema: schema }, { onAnswer() {} });
          void box.offsetHeight;
          return performance.now() - start;
        };
        return Array.from({ length: runs + 1 }, once);
      },
      { schema: benchmarkSchema(fields), runs, name: BUNDLE_GLOBAL },
    );
    const [first, ...rest] = times;
    rest.sort((a, b) => a - b);
    return {
      gzipBytes: bundle.gzipBytes,
      minifiedBytes: bundle.minifiedBytes,
      renderMs: rest[Math.floor(rest.length / 2)]!,
      firstRenderMs: first!,
      fields,
    };
  } finally {
    await browser.close();
  }
}
