/*
 * A health checker in a process of its own, as a load balancer's is: it times GET /healthz on one
 * kept-alive connection, one probe at a time, one started every `everyMs`, and labels each time with the
 * phase the bench last named ('idle', then 'busy'). Timed from the learners' own process, a probe
 * also waited for that process's event loop, busy with fifty learners' answers: the portal's
 * queueing and the load generator's were one figure.
 *
 * Forked with IPC by bench/cohort.ts: send { url, everyMs } to start, { phase } to label what follows,
 * { stop: true } to end; it answers { idle, busy, errors } and exits.
 */
import { Agent, request } from 'node:http';

export type TPhase = 'idle' | 'busy';
export type TProbeCommand = { url: string; everyMs: number } | { phase: TPhase } | { stop: true };
export type TProbeResult = { idle: number[]; busy: number[]; errors: number };

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const times: Record<TPhase, number[]> = { idle: [], busy: [] };
let phase: TPhase = 'idle';
let errors = 0;
let running = true;

function get(url: string) {
  return new Promise<number>((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    })
      .once('error', reject)
      .end();
  });
}

async function probe(url: string, everyMs: number) {
  while (running) {
    const started = performance.now();
    try {
      const status = await get(url);
      if (status === 200) times[phase].push(performance.now() - started);
      else errors += 1;
    } catch {
      errors += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (performance.now() - started))));
  }
}

let loop: Promise<void> | undefined;
process.on('message', (command: TProbeCommand) => {
  if ('url' in command) loop = probe(command.url, command.everyMs);
  else if ('phase' in command) phase = command.phase;
  else {
    running = false;
    void (loop ?? Promise.resolve()).then(() => {
      agent.destroy();
      process.send!({ ...times, errors } satisfies TProbeResult, () => process.exit(0));
    });
  }
});
