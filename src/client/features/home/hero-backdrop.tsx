/**
 * The layered waves along the hero's bottom edge, as a background image rather than an element.
 * The browser paints a page it is still parsing (a slow link, a busy machine): the hero grows as
 * its text arrives, and an element pinned to its bottom moves down with it, a layout shift of
 * 0.05 to 0.09 on a phone. A background moves with its box and is no shift. A data address: no
 * download, and the page's img-src allows it.
 */
const WAVES = svgBackground(
  '<path d="M0 70 C 180 20 360 20 540 60 S 900 120 1080 80 S 1320 30 1440 55 V160 H0 Z" fill="#14a394" fill-opacity="0.18"/>' +
    '<path d="M0 100 C 200 60 400 70 620 100 S 1000 140 1200 105 S 1380 80 1440 90 V160 H0 Z" fill="#5eead4" fill-opacity="0.12"/>' +
    '<path d="M0 125 C 240 100 480 105 720 125 S 1200 150 1440 120 V160 H0 Z" fill="#ffffff"/>',
);

function svgBackground(paths: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1440 160" preserveAspectRatio="none">${paths}</svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}

/**
 * The hero's background, drawn in CSS and inline SVG so the first screen needs no image download:
 * a navy-to-teal sea, a faint chart grid, a compass rose and layered waves running into the page.
 */
export function HeroBackdrop() {
  return (
    <div aria-hidden className="pointer-events-none absolute inset-0 -z-10">
      <div className="absolute inset-0 bg-[radial-gradient(120%_80%_at_85%_10%,#115e59_0%,transparent_55%),linear-gradient(160deg,#061731_0%,#0b2545_45%,#16304f_100%)]" />
      <div className="absolute inset-0 opacity-[0.07] [background-image:linear-gradient(#fff_1px,transparent_1px),linear-gradient(90deg,#fff_1px,transparent_1px)] [background-size:56px_56px] [mask-image:linear-gradient(to_bottom,black,transparent_85%)]" />
      <svg
        viewBox="0 0 200 200"
        className="absolute -top-10 -right-16 size-[26rem] text-sea-300/15 sm:size-[34rem]"
        fill="none"
        stroke="currentColor"
      >
        <circle cx="100" cy="100" r="92" strokeWidth="1" />
        <circle cx="100" cy="100" r="70" strokeWidth="0.6" strokeDasharray="2 4" />
        <circle cx="100" cy="100" r="40" strokeWidth="0.8" />
        <path d="M100 4 L110 100 L100 196 L90 100 Z" strokeWidth="0.8" />
        <path d="M4 100 L100 90 L196 100 L100 110 Z" strokeWidth="0.8" />
        <path d="M32 32 L104 96 L168 168 L96 104 Z" strokeWidth="0.5" />
        <path d="M168 32 L104 104 L32 168 L96 96 Z" strokeWidth="0.5" />
      </svg>
      <div
        className="absolute inset-0 bg-size-[100%_5rem] bg-bottom bg-no-repeat sm:bg-size-[100%_7rem]"
        style={{ backgroundImage: WAVES }}
      />
    </div>
  );
}
