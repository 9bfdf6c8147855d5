import type { Page } from 'playwright-core';

/**
 * What keeps the page from fitting its window, one line each, naming the element: the page wider than
 * the window (it scrolls sideways), or a control a person can see lying (partly) outside the window.
 * Hidden elements, visually hidden helpers (1 px, clipped) and whatever sits in a box that scrolls
 * sideways by design (a code block, a table) are not counted; such a box itself is.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > width) problems.push(`the page is ${pageWidth} px wide in a ${width} px window`);
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, input, select, textarea, summary, [role="button"], [role="link"], [role="tab"], [tabindex]:not([tabindex="-1"])',
    );
    const scrollsSideways = (element: Element) => {
      const style = getComputedStyle(element);
      return ['auto', 'scroll'].includes(style.overflowX) && element.scrollWidth > element.clientWidth;
    };
    const describe = (element: HTMLElement) => {
      const name =
        element.getAttribute('aria-label') ??
        (element as HTMLInputElement).labels?.[0]?.textContent ??
        element.textContent ??
        '';
      return `${element.tagName.toLowerCase()} "${name.trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    };
    for (const control of controls) {
      if (!control.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const box = control.getBoundingClientRect();
      // Visually hidden helpers (the skip link until focused) are a pixel wide or clipped away.
      if (box.width <= 1 || box.height <= 1) continue;
      if (getComputedStyle(control).clipPath.startsWith('inset(50%')) continue;
      let ancestor = control.parentElement;
      let inScroller = false;
      while (ancestor && ancestor !== document.body) {
        if (scrollsSideways(ancestor)) {
          inScroller = true;
          break;
        }
        ancestor = ancestor.parentElement;
      }
      if (inScroller) continue;
      // Half a pixel of rounding is not a control off screen.
      if (box.left < -0.5 || box.right > width + 0.5)
        problems.push(
          `${describe(control)} lies outside the ${width} px window (x ${Math.round(box.left)}–${Math.round(box.right)})`,
        );
    }
    return problems;
  });
}
