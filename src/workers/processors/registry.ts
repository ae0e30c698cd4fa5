import type { z } from 'zod';
import { JOBS } from '../../shared/jobs.ts';
import type { JobContext } from '../../server/lib/jobs/runner.ts';
import { sendMail } from './send-mail.ts';

type TProcessor = { payload: z.ZodType; run: (payload: never, ctx: JobContext) => Promise<void> };

/** Every job name and the processor that does its work. */
export const PROCESSORS: Record<string, TProcessor> = {
  [JOBS.sendMail.name]: { payload: JOBS.sendMail.payload, run: sendMail },
};
