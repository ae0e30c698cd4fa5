import { TRPCClientError } from '@trpc/client';
import { httpStatusOf, serverAnswered } from '@/lib/api-errors.ts';
import { announce, clearInFlight, setDownloadNotice } from '@/lib/offline/download-events.ts';
import { drive, Refused, type TJob, type TOfflineApi } from '@/lib/offline/download-fetch.ts';
import { DOWNLOAD_MESSAGES } from '@/lib/offline/download-plan.ts';
import { deleteDownloadData, storedPackage, updateDownload } from '@/lib/offline/download-store.ts';
import { downloadKey, type TStoredDownload } from '@/lib/offline/offline-db.ts';

/*
 * Scheduling the downloads: one job per download, run by one tab at a time, and after a failure
 * the learner told why and the job tried again later (sooner when the link comes back), or the
 * download removed when the server says its enrolment ended.
 */

/** Waits before trying again after a failure, longer each time (the `online` event cuts a wait short). */
const RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000, 60_000];

const jobs = new Map<string, TJob>();

const isQuotaError = (error: unknown) => error instanceof DOMException && error.name === 'QuotaExceededError';
/** The fetch failed without an answer: the link is down (or the browser is offline). */
const isNetworkFailure = (error: unknown) => error instanceof TypeError || (error instanceof TRPCClientError && !serverAnswered(error));

async function setError(key: string, error: string, state?: TStoredDownload['state']) {
  await updateDownload(key, (row) => ({ ...row, error, state: state ?? row.state }));
}

/** The enrolment ended: the download's media leaves the device. Answers why, in words for the learner. */
export async function removeForEndedEnrolment(job: TJob, key: string, { notice = true } = {}): Promise<string> {
  const download = await storedPackage(job.userId, job.courseId);
  dropJob(key);
  await deleteDownloadData(key);
  const message = DOWNLOAD_MESSAGES.enrolmentEnded(download?.package.course.title ?? 'this course');
  // Said on the course home when it is the one downloading; the caller says it otherwise.
  if (notice) setDownloadNotice(key, message);
  announce(key);
  return message;
}

async function afterFailure(job: TJob, key: string, error: unknown) {
  clearInFlight(key);
  if (isQuotaError(error)) {
    await setError(key, DOWNLOAD_MESSAGES.noSpaceLeft, 'paused');
    return;
  }
  const status = error instanceof Refused ? error.status : httpStatusOf(error);
  if (status === 401 && !(error instanceof Refused)) {
    await setError(key, DOWNLOAD_MESSAGES.signInAgain);
    return;
  }
  if (error instanceof Refused || status === 403 || status === 404) {
    // Refused even with fresh links, or no fresh links given: the server says whether the download still works.
    const download = await storedPackage(job.userId, job.courseId);
    if (!download) return;
    let active: boolean;
    try {
      active = (await job.api.offlineStatus({ downloadIds: [download.package.downloadId] })).active.includes(download.package.downloadId);
    } catch (statusError) {
      const statusCode = httpStatusOf(statusError);
      if (statusCode === 403 || statusCode === 404) active = false;
      else return retryLater(job, key, isNetworkFailure(statusError) ? DOWNLOAD_MESSAGES.waitingForConnection : DOWNLOAD_MESSAGES.serverTrouble);
    }
    if (!active) await removeForEndedEnrolment(job, key);
    else await setError(key, DOWNLOAD_MESSAGES.refused, 'paused');
    return;
  }
  const offline = isNetworkFailure(error) || (typeof navigator !== 'undefined' && navigator.onLine === false);
  await retryLater(job, key, offline ? DOWNLOAD_MESSAGES.waitingForConnection : DOWNLOAD_MESSAGES.serverTrouble);
}

async function retryLater(job: TJob, key: string, message: string) {
  await setError(key, message);
  const delay = RETRY_DELAYS_MS[Math.min(job.failures, RETRY_DELAYS_MS.length - 1)]!;
  job.failures += 1;
  if (job.retryTimer) clearTimeout(job.retryTimer);
  job.retryTimer = setTimeout(() => {
    job.retryTimer = null;
    runJob(job);
  }, delay);
}

type TLocks = { request(name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<void> };

/** Runs a job unless it is running: one tab at a time downloads a course (a Web Lock per download, where the browser has them). */
function runJob(job: TJob) {
  if (job.controller) return;
  const key = downloadKey(job.userId, job.courseId);
  const controller = new AbortController();
  job.controller = controller;
  const work = async () => {
    try {
      await drive(job, controller.signal);
    } catch (error) {
      if (!controller.signal.aborted) await afterFailure(job, key, error);
    }
  };
  const locks = (typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: TLocks }).locks : undefined) ?? null;
  const running = locks ? locks.request(`academy-offline:${key}`, { signal: controller.signal }, work) : work();
  void running
    .catch(() => undefined)
    .finally(() => {
      clearInFlight(key);
      if (job.controller === controller) job.controller = null;
    });
}

export function ensureJob(api: TOfflineApi, userId: string, courseId: string): TJob {
  const key = downloadKey(userId, courseId);
  let job = jobs.get(key);
  if (!job) {
    job = { api, userId, courseId, controller: null, retryTimer: null, failures: 0 };
    jobs.set(key, job);
  }
  job.api = api;
  return job;
}

export function startJob(api: TOfflineApi, userId: string, courseId: string) {
  const job = ensureJob(api, userId, courseId);
  if (job.retryTimer) clearTimeout(job.retryTimer);
  job.retryTimer = null;
  runJob(job);
}

export function stopJob(key: string) {
  const job = jobs.get(key);
  if (!job) return;
  if (job.retryTimer) clearTimeout(job.retryTimer);
  job.retryTimer = null;
  job.controller?.abort();
  job.controller = null;
  clearInFlight(key);
}

/** Stops a job and forgets it (its download is gone). */
export function dropJob(key: string) {
  stopJob(key);
  jobs.delete(key);
}

// The link is back: every download waiting for it carries on from its first missing chunk now.
if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    for (const job of jobs.values()) {
      if (job.retryTimer === null) continue;
      job.failures = 0;
      startJob(job.api, job.userId, job.courseId);
    }
  });
}
