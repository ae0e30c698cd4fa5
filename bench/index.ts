import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accountsBenchmark } from './accounts.bench.ts';
import { certificatesBenchmark } from './certificates.bench.ts';
import { classSignUpBenchmark } from './class-sign-up.bench.ts';
import { coursesBenchmark } from './courses.bench.ts';
import { deliveryBenchmark } from './delivery.bench.ts';
import { foundationBenchmark } from './foundation.bench.ts';
import { hardeningBenchmark } from './hardening.bench.ts';
import { lighthouseScreensBenchmark } from './lighthouse-screens.bench.ts';
import { offlineBenchmark } from './offline.bench.ts';
import { profilesBenchmark } from './profiles.bench.ts';
import { regulatorExportBenchmark } from './regulator-export.bench.ts';
import { remindersBenchmark } from './reminders.bench.ts';
import { secondFactorBenchmark } from './second-factor.bench.ts';
import { storageBenchmark } from './storage.bench.ts';
import { streamDeliveryBenchmark } from './stream-delivery.bench.ts';
import { ROOT, type TBenchmark } from './support.ts';
import { trainingBenchmark } from './training.bench.ts';
import { transcodeBenchmark } from './transcode.bench.ts';
import { viewersBenchmark } from './viewers.bench.ts';
import { watchClockBenchmark } from './watch-clock.bench.ts';
import { watchersBenchmark } from './watchers.bench.ts';

/** `npm run bench`: measures the figures the portal is held to and writes bench/report.md. */
const benchmarks: TBenchmark[] = [foundationBenchmark, accountsBenchmark, profilesBenchmark, coursesBenchmark, hardeningBenchmark, transcodeBenchmark, trainingBenchmark, deliveryBenchmark, storageBenchmark, streamDeliveryBenchmark, certificatesBenchmark, remindersBenchmark, regulatorExportBenchmark, classSignUpBenchmark, watchClockBenchmark, viewersBenchmark, watchersBenchmark, offlineBenchmark, secondFactorBenchmark, lighthouseScreensBenchmark];

// The results search alone (BENCH_ONLY=results-search) needs the server bundle only: npm run build:server.
if (process.env.BENCH_ONLY !== 'results-search' && !existsSync(path.join(ROOT, 'dist/client/index.html'))) {
  process.stderr.write('Build the client first: npm run build\n');
  process.exit(1);
}

const only = process.argv[2]?.toLowerCase();
const lines = [
  '# Benchmark report',
  '',
  `${new Date().toISOString()} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'} · ${Math.round(os.totalmem() / 2 ** 30)} GiB · Node ${process.version}`,
  '',
];
for (const benchmark of benchmarks) {
  if (only && !benchmark.name.toLowerCase().includes(only)) continue;
  process.stdout.write(`\n## ${benchmark.name}\n`);
  const rows = await benchmark.run();
  lines.push(`## ${benchmark.name}`, '', '| figure | value | note |', '|---|---|---|');
  for (const row of rows) {
    process.stdout.write(`${row.figure}: ${row.value}${row.note ? ` (${row.note})` : ''}\n`);
    lines.push(`| ${row.figure} | ${row.value} | ${row.note ?? ''} |`);
  }
  lines.push('');
}
writeFileSync(path.join(ROOT, 'bench/report.md'), `${lines.join('\n')}\n`);
process.stdout.write('\nWritten to bench/report.md\n');
