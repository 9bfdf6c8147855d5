import type { Page } from 'playwright-core';

/** PROVISIONAL: replaced by the phone helper's version. */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width)
      problems.push(`page is ${document.documentElement.scrollWidth} px wide in a ${width} px viewport`);
    return problems;
  });
}
