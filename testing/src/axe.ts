import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/**
 * Runs axe-core (WCAG 2.1 A/AA and best practices) on one part of the page. axe is evaluated
 * through the DevTools protocol, so the page's CSP stays as strict as it is for people.
 */
export async function runAxe(page: Page, scope: Locator): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const handle = await scope.elementHandle();
  return page.evaluate(async (element) => {
    type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
    type Axe = { run(context: Element | null, options: object): Promise<{ violations: Violation[] }> };
    const { axe } = window as unknown as { axe: Axe };
    const result = await axe.run(element, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  }, handle);
}
