import { z } from 'zod';

/**
 * Background jobs: a name and a payload of ids only (never documents, codes or secrets).
 * The processor for each is named in src/server/jobs.ts.
 */
export const JOBS = {
  sendMail: {
    name: 'send-mail',
    payload: z.object({ mailId: z.string().uuid() }),
  },
  transcodeVideo: {
    name: 'transcode-video',
    payload: z.object({ videoId: z.string().uuid() }),
  },
  renderCertificate: {
    name: 'render-certificate',
    payload: z.object({ certificateId: z.string().uuid() }),
  },
} as const;

export type TJobPayload<K extends keyof typeof JOBS> = z.infer<(typeof JOBS)[K]['payload']>;
