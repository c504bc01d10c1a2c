/**
 * Workload (g): the form renderer (@parley/renderer), through the measurement the tests share
 * (`@parley/testing/measure-renderer`): its size minified + gzipped, and the time headless Chromium
 * takes to render a 20-field form (median of many renders, layout forced each time).
 */
import { measureRenderer, RENDERER_GOALS, type RendererMeasurement } from '@parley/testing/measure-renderer';

export interface RendererResult extends RendererMeasurement {
  readonly status: 'ok';
  readonly runs: number;
  readonly goals: { readonly gzipBytes: number; readonly renderMs: number };
}

export interface RendererFailure {
  readonly status: 'failed';
  readonly reason: string;
}

/** Measures the renderer; a machine without Chromium gets a failure with the reason, not a throw. */
export async function measureFormRenderer(runs: number): Promise<RendererResult | RendererFailure> {
  try {
    const measured = await measureRenderer({ fields: 20, runs });
    return { status: 'ok', ...measured, runs, goals: RENDERER_GOALS };
  } catch (error) {
    return {
      status: 'failed',
      reason: error instanceof Error ? error.message.split('\n')[0]! : String(error),
    };
  }
}
