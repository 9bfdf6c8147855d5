import type { Page } from 'playwright-core';

/**
 * What keeps the page from fitting its window, one line each, naming the element: the page wider than
 * the window (it scrolls sideways), a control a person can see lying (partly) outside the window, a
 * form control (a row's button or select) hidden past the edge of a box that scrolls sideways, and a
 * checkbox or radio button that is not beside its label. Hidden elements, visually hidden helpers
 * (1 px, clipped) and links or text in a box that scrolls sideways by design (a code block, a wide
 * table in a message) are not counted; such a box itself is.
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
    // Half a pixel of rounding is not a control off screen.
    const outside = (box: DOMRect, left: number, right: number) =>
      box.left < left - 0.5 || box.right > right + 0.5;
    for (const control of controls) {
      if (!control.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const box = control.getBoundingClientRect();
      // Visually hidden helpers (the skip link until focused) are a pixel wide or clipped away.
      if (box.width <= 1 || box.height <= 1) continue;
      if (getComputedStyle(control).clipPath.startsWith('inset(50%')) continue;
      let scroller: HTMLElement | null = control.parentElement;
      while (scroller && scroller !== document.body && !scrollsSideways(scroller))
        scroller = scroller.parentElement;
      if (scroller && scroller !== document.body) {
        // A link in a wide table of a message is read by scrolling to it; a row's action must be in view.
        const action = control.matches('button, input, select, textarea, [role="button"]');
        const view = scroller.getBoundingClientRect();
        if (
          action &&
          outside(
            box,
            view.left + scroller.clientLeft,
            view.left + scroller.clientLeft + scroller.clientWidth,
          )
        )
          problems.push(
            `${describe(control)} lies past the edge of a box that scrolls sideways (x ${Math.round(box.left)}–${Math.round(box.right)}, the box shows ${Math.round(view.left)}–${Math.round(view.left + scroller.clientWidth)})`,
          );
        continue;
      }
      if (outside(box, 0, width))
        problems.push(
          `${describe(control)} lies outside the ${width} px window (x ${Math.round(box.left)}–${Math.round(box.right)})`,
        );
    }
    // A checkbox or radio button sits on its label's first line, just before its text.
    for (const choice of document.querySelectorAll<HTMLInputElement>(
      'input[type="checkbox"], input[type="radio"]',
    )) {
      const label = choice.labels?.[0];
      if (!label || !choice.checkVisibility({ checkVisibilityCSS: true })) continue;
      const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT, {
        acceptNode: (node) =>
          node.textContent?.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT,
      });
      const text = walker.nextNode();
      if (!text) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      const line = range.getClientRects()[0];
      const box = choice.getBoundingClientRect();
      if (!line || box.width <= 1) continue;
      const middle = (box.top + box.bottom) / 2;
      const rtl = getComputedStyle(label).direction === 'rtl';
      const gap = rtl ? box.left - line.right : line.left - box.right;
      const fontSize = Number.parseFloat(getComputedStyle(label).fontSize);
      if (middle < line.top || middle > line.bottom || gap < 0 || gap > fontSize * 1.5)
        problems.push(
          `${describe(choice)} is not beside its label (the box at x ${Math.round(box.left)}, y ${Math.round(box.top)}–${Math.round(box.bottom)}; the label's first line at x ${Math.round(line.left)}, y ${Math.round(line.top)}–${Math.round(line.bottom)})`,
        );
    }
    return problems;
  });
}

/**
 * What makes a chart's labels hard to read, one line each: a label drawn smaller than 12 px on screen
 * (its font size times the drawing's scale, the smaller of the two directions), one that touches or
 * covers another, or one that reaches past its chart.
 */
export async function chartLabelProblems(page: Page, selector = '.usage-chart svg'): Promise<string[]> {
  return page.evaluate((selector) => {
    const problems: string[] = [];
    for (const chart of document.querySelectorAll<SVGSVGElement>(selector)) {
      const name = chart.getAttribute('aria-labelledby')
        ? (document.getElementById(chart.getAttribute('aria-labelledby') as string)?.textContent ?? '')
        : '';
      const area = chart.getBoundingClientRect();
      const labels = [...chart.querySelectorAll<SVGTextElement>('text')].map((text) => {
        const scale = text.getScreenCTM();
        const size =
          Number.parseFloat(getComputedStyle(text).fontSize) * Math.min(scale?.a ?? 1, scale?.d ?? 1);
        return { text: text.textContent ?? '', size, box: text.getBoundingClientRect() };
      });
      for (const label of labels) {
        // A tenth of a pixel is rounding (the drawing is as wide as its box, to the pixel).
        if (label.size < 11.9) problems.push(`${name}: “${label.text}” is ${label.size.toFixed(1)} px`);
        if (label.box.left < area.left - 0.5 || label.box.right > area.right + 0.5)
          problems.push(`${name}: “${label.text}” reaches past the chart`);
      }
      labels.forEach((one, index) => {
        for (const other of labels.slice(index + 1)) {
          const apart =
            one.box.right <= other.box.left ||
            other.box.right <= one.box.left ||
            one.box.bottom <= other.box.top ||
            other.box.bottom <= one.box.top;
          if (!apart) problems.push(`${name}: “${one.text}” and “${other.text}” overlap`);
        }
      });
    }
    return problems;
  }, selector);
}
