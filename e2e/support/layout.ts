import type { Page } from 'playwright-core';

/**
 * What sticks out: elements past the screen's right edge, and elements past the right edge of the
 * bordered box (a card, a dialog) they sit in. Content that scrolls inside its own box is fine.
 */
export function overflowing(page: Page): Promise<{ page: boolean; elements: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (element: Element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
    const scrollsBelow = (element: Element, top: Element | null) => {
      for (let parent = element.parentElement; parent && parent !== top; parent = parent.parentElement) if (scrolls(parent)) return true;
      return false;
    };
    const name = (element: Element) => `${element.tagName}.${String(element.className)}`.slice(0, 120);
    const found: string[] = [];
    // The toasts' list is as wide as the screen plus its offset on a phone (sonner's layout); its toasts are checked.
    const all = [...document.querySelectorAll('body *:not([data-sonner-toaster])')].filter((element) => element.getBoundingClientRect().width > 0);
    for (const element of all) {
      if (element.getBoundingClientRect().right > width + 1 && !scrollsBelow(element, null)) found.push(name(element));
    }
    for (const box of all.filter((element) => parseFloat(getComputedStyle(element).borderRightWidth) > 0 && !scrolls(element))) {
      const right = box.getBoundingClientRect().right;
      for (const inner of box.querySelectorAll('*')) {
        if (inner.getBoundingClientRect().right > right + 1 && !scrollsBelow(inner, box)) found.push(`${name(inner)} in ${name(box)}`);
      }
    }
    return { page: document.documentElement.scrollWidth > width, elements: [...new Set(found)] };
  });
}
