import { JOBS } from '../shared/jobs.ts';
import type { TJobProcessor } from './lib/jobs/runner.ts';
import { sendMail } from './lib/mail/send-mail.job.ts';
import { renderCertificate } from './modules/certificates/render-certificate.job.ts';
import { transcodeTrainingVideo } from './modules/training/transcode.job.ts';

/**
 * Every job name and the processor that does its work, handed to the runner by the runtime, so the
 * API process and `npm run worker` run the same work. A feature that queues a job adds it here.
 */
export const JOB_PROCESSORS: Readonly<Record<string, TJobProcessor>> = {
  [JOBS.sendMail.name]: { payload: JOBS.sendMail.payload, run: sendMail },
  [JOBS.transcodeVideo.name]: { payload: JOBS.transcodeVideo.payload, run: transcodeTrainingVideo },
  [JOBS.renderCertificate.name]: { payload: JOBS.renderCertificate.payload, run: renderCertificate },
};
