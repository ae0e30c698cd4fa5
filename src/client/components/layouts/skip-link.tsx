/** The first focusable element on every page: jumps past the navigation to the main content. */
export function SkipLink({ targetId = 'main-content' }: { targetId?: string }) {
  return (
    <a
      href={`#${targetId}`}
      className="sr-only z-[60] rounded-md bg-navy-900 text-sm font-semibold text-white focus:not-sr-only focus:fixed focus:px-4 focus:py-2 focus:top-3 focus:left-3 focus:outline-none focus:ring-2 focus:ring-sea-300"
    >
      Skip to main content
    </a>
  );
}
