import { type ClassValue, clsx } from 'clsx';

/**
 * Joins class names, skipping falsy ones. It does not settle conflicts between Tailwind classes
 * (tailwind-merge would, for 8 KB gzip on the home page), so a className passed to a component must
 * not fight the component's own classes (bg-white/5 against an outline button's bg-background, say):
 * which one wins would depend on the stylesheet's order. Add a variant for such a look instead, and
 * pick exactly one of two conflicting classes with a conditional.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
