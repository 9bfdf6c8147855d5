import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.2 A and AA, and axe's best practices. */
const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export type Impact = 'critical' | 'serious' | 'moderate' | 'minor';
export interface AxeViolation {
  id: string;
  impact: Impact | null;
  targets: string[];
}

/** Counts of violating nodes by impact, summed over every check. */
export type AxeTotals = Record<Impact, number>;
export const noViolations = (): AxeTotals => ({ critical: 0, serious: 0, moderate: 0, minor: 0 });
export const formatTotals = (totals: AxeTotals) =>
  `critical ${totals.critical}, serious ${totals.serious}, moderate ${totals.moderate}, minor ${totals.minor}`;

/**
 * axe-core on the page as it is now. It is evaluated through the DevTools protocol, which the app's
 * CSP does not govern, so pages keep their real CSP (and its violations are still reported).
 */
export async function runAxe(page: Page, totals: AxeTotals): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const { axe } = window as unknown as {
      axe: {
        run: (
          context: Document,
          options: object,
        ) => Promise<{ violations: { id: string; impact: Impact | null; nodes: { target: string[] }[] }[] }>;
      };
    };
    // Only violations are read: passing nodes are not described (their selectors cost most of a run).
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.map(({ id, impact, nodes }) => ({
      id,
      impact,
      targets: nodes.map((node) => node.target.join(' ')),
    }));
  }, axeTags);
  for (const violation of violations) totals[violation.impact ?? 'minor'] += violation.targets.length;
  return violations;
}

/** The critical and serious violations, one line each: what a test requires to be empty. */
export const blocking = (violations: AxeViolation[]) =>
  violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.targets.join(' | ')}`);
