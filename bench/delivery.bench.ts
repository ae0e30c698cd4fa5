import os from 'node:os';
import { lighthouse, lighthouseCli } from './lighthouse.ts';
import { adminSession, kb, launchChromium, loadPage, PUBLIC_SCREENS, SHIP_LINK, startSeededPortal, type TPageLoad } from './page-load.ts';
import { ms, type TBenchRow, type TBenchmark } from './support.ts';

const CARD = 'article[aria-labelledby^="course-"]';
/** An admin list drawn with its answer: a user's row (not a loading one), or the empty state. */
const ADMIN_LIST_SHOWN = 'main table tbody tr:not([aria-hidden]), main div.border-dashed';
const load = () => `load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`;

/** The median page load of `runs` (by the figure that matters), so one hiccup of a busy machine does not decide. */
async function median(runs: number, measure: () => Promise<TPageLoad>, by: (load: TPageLoad) => number): Promise<TPageLoad> {
  const loads: TPageLoad[] = [];
  for (let i = 0; i < runs; i += 1) loads.push(await measure());
  return loads.sort((a, b) => by(a) - by(b))[Math.floor(loads.length / 2)]!;
}

/**
 * The public pages' delivery: what the four public screens download in Chromium, their Lighthouse scores
 * (mobile, default throttling), and the public screens and an admin list on a ship's link
 * (400 kbit/s, 400 ms).
 */
export const deliveryBenchmark: TBenchmark = {
  name: 'Delivery',
  async run() {
    const rows: TBenchRow[] = [];
    const portal = await startSeededPortal();
    const browser = await launchChromium();
    try {
      for (const screen of PUBLIC_SCREENS) {
        const page = await median(3, () => loadPage(browser, `${portal.base}${screen}`, { cardsSelector: screen === '/courses' ? CARD : undefined }), (l) => l.interactive);
        rows.push({
          figure: `${screen}: first visit in Chromium`,
          value: `JS ${kb(page.jsTransferred)}`,
          note: `${page.scripts.length} script files; ${page.requests.length} requests, ${kb(page.totalTransferred)} in all; LCP ${page.lcp === undefined ? 'n/a' : ms(page.lcp)}, CLS ${page.cls.toFixed(3)} (412×823, no throttling; ${load()})`,
        });
      }

      for (const screen of PUBLIC_SCREENS) {
        const cards = screen === '/courses' ? CARD : undefined;
        const ship = await median(3, () => loadPage(browser, `${portal.base}${screen}`, { link: SHIP_LINK, cardsSelector: cards }), (l) => l.interactive);
        if (cards) {
          rows.push({
            figure: '/courses on 400 kbit/s, 400 ms: first cards',
            value: ship.firstCards === undefined ? 'not shown' : ms(ship.firstCards),
            note: `aim ≤ 5 s; Chromium's network emulation, median of 3; ${load()}`,
          });
        }
        rows.push({
          figure: `${screen} on 400 kbit/s, 400 ms: interactive`,
          value: ms(ship.interactive),
          note: `aim ≤ 5 s; the first load's last script or API answer in; LCP ${ship.lcp === undefined ? 'n/a' : ms(ship.lcp)}; ${kb(ship.totalTransferred)} in ${ship.requests.length} requests; median of 3, ${load()}`,
        });
      }

      // A signed-in page the browser draws: its frame first, with the page's heading (decisions 038
      // and 040), then the screen and its list: rows, or (no learner approved here) the list's
      // empty state.
      const storageState = await adminSession(browser, portal.base);
      const list = await median(
        3,
        () => loadPage(browser, `${portal.base}/admin-dashboard/approved-users`, { link: SHIP_LINK, storageState, cardsSelector: ADMIN_LIST_SHOWN }),
        (l) => l.firstCards ?? Infinity,
      );
      rows.push({
        figure: 'an admin list (approved users) on 400 kbit/s, 400 ms: first paint',
        value: list.fcp === undefined ? 'n/a' : ms(list.fcp),
        note: `the server's frame with the page's heading (LCP ${list.lcp === undefined ? 'n/a' : ms(list.lcp)}); the list shown at ${list.firstCards === undefined ? 'n/a' : ms(list.firstCards)}; the last script or API answer in at ${ms(list.interactive)}, the drawer's code fetched once idle included; ${kb(list.totalTransferred)} in ${list.requests.length} requests; median of 3 by the list, ${load()}`,
      });
    } finally {
      await browser.close();
    }

    try {
      const { cli, note } = await lighthouseCli();
      if (!cli) {
        rows.push({ figure: 'Lighthouse', value: 'not measured', note });
      } else {
        for (const screen of PUBLIC_SCREENS) {
          try {
            // Other processes share the CPUs: three runs, the median by performance score, and the
            // load average before each run.
            const runs: { report: Awaited<ReturnType<typeof lighthouse>>; load: string }[] = [];
            for (let i = 0; i < 3; i += 1) {
              const before = os.loadavg()[0]!.toFixed(1);
              runs.push({ report: await lighthouse(cli, `${portal.base}${screen}`), load: before });
            }
            const { report } = [...runs].sort((a, b) => a.report.performance - b.report.performance)[1]!;
            rows.push({
              figure: `Lighthouse ${screen} (mobile)`,
              value: `performance ${report.performance}`,
              note: `median of 3 (${runs.map((r) => r.report.performance).join(', ')}); accessibility ${report.accessibility}; FCP ${ms(report.fcp)}, LCP ${ms(report.lcp)}, CLS ${report.cls.toFixed(3)}, TBT ${ms(report.tbt)}; simulated throttling, load before each run ${runs.map((r) => r.load).join(' / ')} on ${os.cpus().length} CPUs`,
            });
          } catch (error) {
            rows.push({ figure: `Lighthouse ${screen} (mobile)`, value: 'failed', note: (error as Error).message.split('\n')[1] ?? (error as Error).message });
          }
        }
      }
    } finally {
      await portal.stop();
    }
    return rows;
  },
};
