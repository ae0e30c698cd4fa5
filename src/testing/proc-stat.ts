import { readdirSync, readFileSync } from 'node:fs';

/** Linux counts CPU time in /proc in ticks of 1/100 s on every common architecture. */
const CLOCK_TICKS = 100;

export type TProcStat = { cpuSeconds: number; nice: number };

/** A process's or thread's CPU time and nice value, from a /proc/.../stat line. */
function parseStat(stat: string): TProcStat {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, nice the 17th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS, nice: Number(fields[16]) };
}

/** The process `pid` as a whole (Linux only: it reads /proc). */
export const processStat = (pid: number): TProcStat => parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** Each of the process's threads (Linux only: it reads /proc). */
export const threadStats = (pid: number): TProcStat[] =>
  readdirSync(`/proc/${pid}/task`).map((tid) => parseStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
